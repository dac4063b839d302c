#!/usr/bin/env node
// A throwaway PostgreSQL or MariaDB server for trying `observe` (docs/observe.md) and for the
// tests: a fresh data directory under the system's temporary folder, a free loopback port, a
// database `shop` and a user `app` with a generated password. Nothing of it outlives `stop`.
//
//   eval "$(node examples/observe/throwaway-database.mjs start postgresql)"   # or mariadb
//   ... RECEIVER_DATABASE_URL is set: postgresql://app:<password>@127.0.0.1:<port>/shop
//   node examples/observe/throwaway-database.mjs stop "$THROWAWAY_DATABASE_DIR"
//
// Needs the server programs (Debian: apt-get install -y postgresql mariadb-server); nothing is
// installed by this script. As root, PostgreSQL runs as the `postgres` user (it refuses root)
// and MariaDB with --user=root. Only Node's standard library is used.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const KINDS = ['postgresql', 'mariadb'];
const isRoot = process.getuid?.() === 0;

/** Debian keeps a PostgreSQL server's programs under /usr/lib/postgresql/<major>/bin, off PATH. */
export function postgresBin() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  return readdirSync(root).filter((d) => /^\d+$/.test(d)).sort((a, b) => Number(b) - Number(a))
    .map((m) => `${root}/${m}/bin`).find((dir) => existsSync(`${dir}/initdb`));
}

function mariadbd() {
  return ['/usr/sbin/mariadbd', '/usr/bin/mariadbd', '/usr/local/bin/mariadbd'].find(existsSync) ?? 'mariadbd';
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `check` until it succeeds or `ms` pass; the last failure is the error. */
async function until(check, ms, what) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${what} did not become ready within ${ms} ms: ${error.stderr || error.message}`);
      await sleep(50);
    }
  }
}

/** Running: a process that ended but was not reaped yet (a zombie, until init collects it) is not. */
function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** As the postgres user when root: initdb and postgres refuse to run as root. */
function asPostgres(command, args) {
  return isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

/**
 * Starts a server. `detached`: it outlives this process (the `start` command); otherwise it is
 * stopped when this process exits. Resolves with its URL (database `shop`, user `app`), the
 * same for an administrator (who may create databases), its folder and `stop()`.
 */
export async function startThrowawayDatabase(kind, { detached = false, database = 'shop' } = {}) {
  if (!KINDS.includes(kind)) throw new Error(`kind must be ${KINDS.join(' or ')} (got ${JSON.stringify(kind)})`);
  const dir = mkdtempSync(join(tmpdir(), `throwaway-${kind}-`));
  const password = randomBytes(12).toString('base64url');
  const port = await freePort();
  const options = { stdio: 'ignore', detached };
  let pidFile;
  let url;
  let adminUrl;
  try {
    if (kind === 'postgresql') {
      const bin = postgresBin();
      if (!bin) throw new Error('PostgreSQL is not installed (Debian: apt-get install -y postgresql)');
      if (isRoot) chownSync(dir, Number((await run('id', ['-u', 'postgres'])).stdout), Number((await run('id', ['-g', 'postgres'])).stdout));
      const pwFile = join(dir, 'password');
      writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
      if (isRoot) chownSync(pwFile, Number((await run('id', ['-u', 'postgres'])).stdout), 0);
      // The superuser is `app`: a throwaway server has no other user.
      const [initdb, initArgs] = asPostgres(`${bin}/initdb`, ['-D', join(dir, 'data'), '-U', 'app', '--auth=scram-sha-256', `--pwfile=${pwFile}`, '-E', 'UTF8', '--locale=C', '--no-sync']);
      await run(initdb, initArgs);
      const [postgres, args] = asPostgres(`${bin}/postgres`, [
        '-D', join(dir, 'data'), '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1',
        // A throwaway: durability off, room for the tests' many pools.
        '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=400',
      ]);
      spawn(postgres, args, options).unref();
      pidFile = join(dir, 'data', 'postmaster.pid');
      const env = { ...process.env, PGPASSWORD: password };
      const psql = (sql, db = 'postgres') => run('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'app', '-d', db, '-v', 'ON_ERROR_STOP=1', '-qAtc', sql], { env });
      await until(() => psql('SELECT 1'), 20_000, 'PostgreSQL');
      await psql(`CREATE DATABASE ${database}`);
      url = `postgresql://app:${password}@127.0.0.1:${port}/${database}`;
      adminUrl = `postgresql://app:${password}@127.0.0.1:${port}/postgres`;
    } else {
      const data = join(dir, 'data');
      const socket = join(dir, 'mysqld.sock');
      pidFile = join(dir, 'mariadbd.pid');
      await run('mariadb-install-db', ['--no-defaults', `--datadir=${data}`, '--auth-root-authentication-method=normal', '--skip-test-db', ...(isRoot ? ['--user=root'] : [])]);
      spawn(mariadbd(), [
        '--no-defaults', `--datadir=${data}`, `--socket=${socket}`, `--port=${port}`, '--bind-address=127.0.0.1', `--pid-file=${pidFile}`,
        '--skip-log-bin', '--skip-name-resolve', '--innodb-buffer-pool-size=64M', '--innodb-flush-log-at-trx-commit=0', '--max-connections=400',
        ...(isRoot ? ['--user=root'] : []),
      ], options).unref();
      const root = (sql) => run('mariadb', ['--no-defaults', '-S', socket, '-u', 'root', '-e', sql]);
      await until(() => root('SELECT 1'), 20_000, 'MariaDB');
      await root(`CREATE DATABASE ${database} CHARACTER SET utf8mb4; CREATE USER 'app'@'127.0.0.1' IDENTIFIED BY '${password}'; GRANT ALL ON *.* TO 'app'@'127.0.0.1' WITH GRANT OPTION;`);
      url = `mariadb://app:${password}@127.0.0.1:${port}/${database}`;
      adminUrl = `mariadb://app:${password}@127.0.0.1:${port}/mysql`;
    }
    writeFileSync(join(dir, 'server.json'), JSON.stringify({ kind, pidFile }));
  } catch (error) {
    await stopThrowawayDatabase(dir);
    throw error;
  }
  const pid = await until(() => Number(readFileSync(pidFile, 'utf8').split('\n')[0]) || Promise.reject(new Error('no pid yet')), 5000, 'the pid file');
  const stopOnExit = () => {
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  };
  if (!detached) process.on('exit', stopOnExit);
  return {
    kind, url, adminUrl, dir, port, pid,
    async stop() {
      process.off('exit', stopOnExit);
      await stopThrowawayDatabase(dir);
    },
  };
}

/**
 * Stops the server started in `dir` and removes `dir`. PostgreSQL gets its fast shutdown (SIGINT,
 * a fraction of a second); MariaDB, whose clean shutdown takes seconds, is killed: nothing in a
 * throwaway server is worth keeping.
 */
export async function stopThrowawayDatabase(dir) {
  const pidFile = ['data/postmaster.pid', 'mariadbd.pid'].map((f) => join(dir, f)).find(existsSync);
  const pid = pidFile ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : NaN;
  if (Number.isInteger(pid) && pid > 0 && alive(pid)) {
    process.kill(pid, pidFile.endsWith('postmaster.pid') ? 'SIGINT' : 'SIGKILL');
    const deadline = Date.now() + 10_000;
    while (alive(pid) && Date.now() < deadline) await sleep(50);
    if (alive(pid)) process.kill(pid, 'SIGKILL');
    while (alive(pid)) await sleep(20);
  }
  rmSync(dir, { recursive: true, force: true });
}

const shellQuote = (text) => `'${text.replace(/'/g, `'\\''`)}'`;

// Run as a command (not imported): compared through links, as a checkout's mirror links its files.
if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [command, argument] = process.argv.slice(2);
  if (command === 'start' && KINDS.includes(argument)) {
    const db = await startThrowawayDatabase(argument, { detached: true });
    process.stdout.write(`export RECEIVER_DATABASE_URL=${shellQuote(db.url)}\nexport THROWAWAY_DATABASE_DIR=${shellQuote(db.dir)}\n`);
  } else if (command === 'stop' && argument) {
    await stopThrowawayDatabase(argument);
  } else {
    process.stderr.write('usage: throwaway-database.mjs start postgresql|mariadb   (prints export lines for eval)\n       throwaway-database.mjs stop DIR\n');
    process.exit(2);
  }
}
