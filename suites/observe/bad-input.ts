// Issue 23: bad input gets a clear, early answer, before any case runs: a URL that does not
// connect, a refused password, a statement that does not parse, a read with no state column or
// several rows, a seed that fails (a NOT NULL column left out), a state value no state maps. Each
// is exit 2 naming the target file's key, the statement and the database's own message, never a
// page of case failures, and the password appears nowhere. A statement that runs long, a lock
// wait, a dropped connection: that case is ERROR naming it, the run goes on, and nothing is left
// open at the end (also when the run is stopped by SIGINT). Run on each database's server
// (observe-postgres.test.ts, observe-mariadb.test.ts).
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileStatement, DatabaseError, openDatabase, parseDatabaseUrl, type Database } from '../../harness/database/index.ts';
import { startEmbeddedReceiver, type EmbeddedReceiver } from '../../harness/embedded/index.ts';
import { ObserveCheckError, ObserveError, SqlObservation } from '../../harness/observe/index.ts';
import { runSide } from '../../harness/run/index.ts';
import { parseTarget } from '../../harness/targets/index.ts';
import { OPEN_WIRE } from '../../harness/wire/index.ts';
import { firstResultLine, runBin, startBin } from '../support/cli-process.ts';
import type { DatabaseKind, TestDatabaseServer } from '../support/databases.ts';
import { EXAMPLE, ROOT } from './receiver-on-sql.ts';

/** How each database words the pieces the messages quote. */
const WORDS: Record<DatabaseKind, { product: string; table: string; idColumn: string; pending: string; sleep: (s: number) => string }> = {
  postgresql: { product: 'PostgreSQL', table: 'payments', idColumn: 'transaction_id', pending: 'PENDING', sleep: (s) => `pg_sleep(${s})::text = ''` },
  mariadb: { product: 'MySQL/MariaDB', table: 'orders', idColumn: 'reference', pending: 'pending', sleep: (s) => `SLEEP(${s}) = 0` },
};

let counter = 0;

interface Setup {
  kind: DatabaseKind;
  url: string;
  receiver: EmbeddedReceiver;
  env: Record<string, string>;
  /** The example's target file with `observe` keys replaced (and the reply deadline, 500 ms unless given); its path. */
  target(changes?: Record<string, unknown>, url?: string, replyDeadlineMs?: number): string;
  close(): Promise<void>;
}

/** A fresh database with the reference receiver's tables and the receiver itself (no hooks), and target files for it. */
async function setUp(server: TestDatabaseServer): Promise<Setup> {
  const url = await server.fresh('badinput');
  const receiver = await startEmbeddedReceiver({ timeScale: 0.02, replyDeadlineMs: 500, hooks: false, store: { url, mode: 'conditional-update' } });
  const dir = mkdtempSync(join(tmpdir(), 'cc-observe-bad-'));
  const example = JSON.parse(readFileSync(join(ROOT, 'examples/observe', EXAMPLE[server.kind], 'target.json'), 'utf8')) as { observe: Record<string, unknown> };
  const env: Record<string, string> = { COLLECT_CALLBACK_TOKEN: receiver.target.callbackToken!, RECEIVER_DATABASE_URL: url };
  return {
    kind: server.kind, url, receiver, env,
    target(changes = {}, databaseUrl, replyDeadlineMs = 500) {
      const file = `target-${++counter}.json`;
      const observe = { ...example.observe, ...changes, database: { env: databaseUrl ? 'OTHER_DATABASE_URL' : 'RECEIVER_DATABASE_URL' } };
      writeFileSync(join(dir, file), JSON.stringify({ ...example, callbackUrl: receiver.target.callbackUrl, observe, timing: { replyDeadlineMs } }));
      if (databaseUrl) env.OTHER_DATABASE_URL = databaseUrl;
      return join(dir, file);
    },
    close: () => receiver.close(),
  };
}

/** `run --target` to its end (a few cases), with the setup's environment. */
function run(setup: Setup, target: string, only = 'receiver.outcome') {
  return runBin(['run', '--target', target, '--report-dir', mkdtempSync(join(tmpdir(), 'cc-observe-report-')), '--only', only], { env: setup.env, timeoutMs: 60_000 });
}

/** The same URL with another password (a refused one), or another user made for the test (its connections counted). */
function withUser(url: string, user: string, password: string): string {
  const u = new URL(url);
  u.username = user;
  u.password = password;
  return u.toString();
}

async function newUser(server: TestDatabaseServer, name: string, password: string): Promise<void> {
  await server.execute(server.kind === 'postgresql'
    ? `CREATE ROLE ${name} LOGIN SUPERUSER PASSWORD '${password}'`
    : `CREATE USER '${name}'@'127.0.0.1' IDENTIFIED BY '${password}'`);
  if (server.kind === 'mariadb') await server.execute(`GRANT ALL ON *.* TO '${name}'@'127.0.0.1'`);
}

/** Connections the server holds open for `user`. */
async function connectionsOf(server: TestDatabaseServer, user: string): Promise<number> {
  const rows = await server.execute(server.kind === 'postgresql'
    ? `SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = '${user}'`
    : `SELECT count(*) AS n FROM information_schema.PROCESSLIST WHERE USER = '${user}'`);
  return Number(rows[0]?.n);
}

/** Waits (up to 3 s) for the server to have closed every connection of `user`: a closed socket is seen at once, but its session ends a moment later. */
async function noConnectionsLeft(server: TestDatabaseServer, user: string): Promise<number> {
  let left = await connectionsOf(server, user);
  for (let i = 0; i < 60 && left > 0; i++) {
    await new Promise((r) => setTimeout(r, 50));
    left = await connectionsOf(server, user);
  }
  return left;
}

function expectNoSecret(text: string, ...secrets: string[]): void {
  for (const secret of secrets) expect(text).not.toContain(secret);
}

function passwordOf(url: string): string {
  return decodeURIComponent(new URL(url).password);
}

export function badInputSuite(kind: DatabaseKind, server: () => TestDatabaseServer): void {
  const w = WORDS[kind];
  describe(`bad input on ${kind}: exit 2 before any case, naming the key, the statement and the database's message`, () => {
    it('a URL that does not connect', async () => {
      const setup = await setUp(server());
      try {
        const closed = new URL(setup.url);
        closed.port = '9';
        const ran = await run(setup, setup.target({}, closed.toString()));
        expect(ran.code, ran.stderr).toBe(2);
        expect(ran.stderr).toMatch(new RegExp(`/observe/database: cannot connect to the database: ${w.product.replace('/', '\\/')} at \\w+://app:\\*\\*\\*@127\\.0\\.0\\.1:9/\\w+: connect ECONNREFUSED 127\\.0\\.0\\.1:9`));
        expect(ran.stdout).not.toMatch(/^(PASS|FAIL|ERROR) /m);
        expectNoSecret(ran.stdout + ran.stderr, passwordOf(setup.url));
      } finally {
        await setup.close();
      }
    });
    it('a password the database refuses: named, never shown (neither the wrong one nor the right one)', async () => {
      const setup = await setUp(server());
      try {
        const wrong = 'wrong-Password-99';
        const ran = await run(setup, setup.target({}, withUser(setup.url, 'app', wrong)));
        expect(ran.code, ran.stderr).toBe(2);
        expect(ran.stderr).toMatch(kind === 'postgresql'
          ? /\/observe\/database: the database refused the user name or password: PostgreSQL at postgresql:\/\/app:\*\*\*@127\.0\.0\.1:\d+\/\w+: password authentication failed for user "app" \(28P01\)/
          : /\/observe\/database: the database refused the user name or password: MySQL\/MariaDB at mariadb:\/\/app:\*\*\*@127\.0\.0\.1:\d+\/\w+: Access denied for user 'app'@'127\.0\.0\.1' \(using password: YES\) \(ER_ACCESS_DENIED_ERROR\)/);
        expectNoSecret(ran.stdout + ran.stderr, wrong, passwordOf(setup.url));
      } finally {
        await setup.close();
      }
    });
    it('a statement that does not parse', async () => {
      const setup = await setUp(server());
      try {
        const ran = await run(setup, setup.target({ read: `SELEC status AS state FROM ${w.table} WHERE ${w.idColumn} = :transaction_id` }));
        expect(ran.code, ran.stderr).toBe(2);
        expect(ran.stderr).toMatch(kind === 'postgresql'
          ? /\/observe\/read: the read statement failed: PostgreSQL: syntax error at or near "SELEC" \(42601\)/
          : /\/observe\/read: the read statement failed: MySQL\/MariaDB: You have an error in your SQL syntax; .* near 'SELEC status AS state/);
      } finally {
        await setup.close();
      }
    });
    it('a read that returns no state column', async () => {
      const setup = await setUp(server());
      try {
        const ran = await run(setup, setup.target({ read: `SELECT status FROM ${w.table} WHERE ${w.idColumn} = :transaction_id` }));
        expect(ran.code, ran.stderr).toBe(2);
        expect(ran.stderr).toContain('/observe/read: the read statement returns no column named state (it returns "status"): name the receiver\'s status column "AS state"');
      } finally {
        await setup.close();
      }
    });
    it('a read that returns several rows for one transaction id', async () => {
      const setup = await setUp(server());
      try {
        const receiverTable = server().kind === 'postgresql' ? 'INSERT INTO payments (transaction_id, amount) VALUES (\'other-1\', 1), (\'other-2\', 1)'
          : "INSERT INTO orders (reference, amount, status) VALUES ('other-1', 1, 'pending'), ('other-2', 1, 'pending')";
        const db = await open(setup.url);
        await db.execute(receiverTable);
        await db.close();
        const ran = await run(setup, setup.target({ read: `SELECT status AS state FROM ${w.table} WHERE ${w.idColumn} = :transaction_id OR status = '${w.pending}'` }));
        expect(ran.code, ran.stderr).toBe(2);
        expect(ran.stderr).toContain('/observe/read: the read statement returned 2 rows for one transaction id; it must return at most one');
      } finally {
        await setup.close();
      }
    });
    it('a seed that fails: a NOT NULL column it leaves out', async () => {
      const setup = await setUp(server());
      try {
        const ran = await run(setup, setup.target({ seed: `INSERT INTO ${w.table} (${w.idColumn}) VALUES (:transaction_id)` }));
        expect(ran.code, ran.stderr).toBe(2);
        expect(ran.stderr).toMatch(kind === 'postgresql'
          ? /\/observe\/seed: the seed statement failed: PostgreSQL: null value in column "amount" of relation "payments" violates not-null constraint \(23502\)/
          : /\/observe\/seed: the seed statement failed: MySQL\/MariaDB: Field 'amount' doesn't have a default value \(ER_NO_DEFAULT_FOR_FIELD\)/);
      } finally {
        await setup.close();
      }
    });
    it('a state value the states mapping does not map', async () => {
      const setup = await setUp(server());
      try {
        const ran = await run(setup, setup.target({ states: { pending: ['new'], SUCCESS: ['done'], FAILED: ['failed'] } }));
        expect(ran.code, ran.stderr).toBe(2);
        expect(ran.stderr).toContain(`/observe/states: a freshly seeded record reads state "${w.pending}" (unmapped: neither pending, SUCCESS nor FAILED), actions 0: the value the seed writes must map to pending (e.g. "states": {"pending": ["${w.pending}"], …})`);
      } finally {
        await setup.close();
      }
    });
  });

  describe(`observe-check on ${kind}: what a seed and a read ran and saw, leaving nothing behind`, () => {
    it('prints each statement, its parameters and rows, and the state it maps to; the check is rolled back', async () => {
      const setup = await setUp(server());
      try {
        const ran = await runBin(['observe-check', '--target', setup.target()], { env: setup.env, timeoutMs: 30_000 });
        expect(ran.code, ran.stderr).toBe(0);
        expect(ran.stdout).toMatch(new RegExp(`^observing through sql \\(${w.product.replace('/', '\\/')} at \\w+://app:\\*\\*\\*@127\\.0\\.0\\.1:\\d+/\\w+\\)$`, 'm'));
        expect(ran.stdout).toMatch(/^read "cc-[^"]+" \(never seeded\): 404 \(no record\)$/m);
        expect(ran.stdout).toMatch(/^ {4}seed: INSERT INTO .* parameters \{"transaction_id":"cc-[^"]+","amount":"10\.00"\} → 1 row\(s\) changed/m);
        expect(ran.stdout).toMatch(new RegExp(`^ {4}read: SELECT status AS state .* → 1 row\\(s\\) \\[\\{"state":"${w.pending}"\\}\\]`, 'm'));
        expect(ran.stdout).toMatch(/^ {4}actions: SELECT count\(\*\) AS actions .* → 1 row\(s\) \[\{"actions":"?0"?\}\]/m);
        // The receiver's own value is named where it is not the suite's word.
        expect(ran.stdout).toContain(`ok: a seeded record reads state pending${w.pending === 'pending' ? '' : ` ("${w.pending}")`}, actions 0`);
        expectNoSecret(ran.stdout + ran.stderr, passwordOf(setup.url));
        const db = await open(setup.url);
        const left = await db.execute(`SELECT count(*) AS n FROM ${w.table}`);
        await db.close();
        expect(Number(left.rows[0]?.n)).toBe(0);
      } finally {
        await setup.close();
      }
    });
  });

  describe(`trouble during a run on ${kind}: the case is ERROR naming it, the run goes on, nothing is left open`, () => {
    it('a statement that runs past its limit: that case ERROR, the others PASS; no connection left after the run', async () => {
      const setup = await setUp(server());
      const user = `watch_${kind}_${++counter}`;
      try {
        await newUser(server(), user, 'watcher-Secret-1');
        // The count takes 10 s once the record is FAILED: only the case that applies FAILED meets it.
        // A reply deadline of 1.5 s gives the statements a limit of 3 s (twice the deadline): the
        // other cases must PASS, and on a loaded CI machine one callback got no answer within 1 s
        // (ERROR, the test failed; our guess: the receiver's first connections to its database).
        const failed = kind === 'postgresql' ? 'FAILED' : 'failed';
        const example = JSON.parse(readFileSync(join(ROOT, 'examples/observe', EXAMPLE[kind], 'target.json'), 'utf8')) as { observe: { actions: string } };
        const actions = `${example.observe.actions} AND (${kind === 'postgresql' ? 'p' : 'o'}.status <> '${failed}' OR ${w.sleep(10)})`;
        // Not receiver.outcome.success-applied: on a loaded machine its callback was once seen
        // unanswered for as long as the slow statement ran (on MariaDB). Sampled since, the kit's
        // read holds no locks and the receiver answers beside it (docs/observe.md, "What goes
        // wrong"); still kept out of this test of the run going on.
        const others = ['failed-applied', 'unknown-status-pending', 'unknown-status-lowercase', 'missing-status', 'missing-transaction-id', 'unknown-id'];
        const ran = await run(setup, setup.target({ actions }, withUser(setup.url, user, 'watcher-Secret-1'), 1500), others.map((c) => `receiver.outcome.${c}`).join(','));
        expect(ran.code, ran.stdout + ran.stderr).toBe(1);
        expect(ran.stdout).toMatch(new RegExp(`^ERROR +receiver\\.outcome\\.failed-applied .*the actions statement ran past its time limit of 3000 ms: ${w.product.replace('/', '\\/')}: (canceling statement due to statement timeout \\(57014\\)|Query execution was interrupted \\(max_statement_time exceeded\\))`, 'm'));
        expect(ran.stdout).toMatch(/^PASS +receiver\.outcome\.unknown-id /m);
        expect(ran.stdout).toMatch(/6 cases: 5 PASS, 0 FAIL, 0 WARN, 0 SKIP, 1 ERROR/);
        expect(await noConnectionsLeft(server(), user)).toBe(0);
      } finally {
        await setup.close();
      }
    });
    it('a run stopped by SIGINT closes its connections before it ends', async () => {
      const setup = await setUp(server());
      const user = `watch_${kind}_${++counter}`;
      try {
        await newUser(server(), user, 'watcher-Secret-2');
        const started = startBin(['run', '--target', setup.target({}, withUser(setup.url, user, 'watcher-Secret-2')), '--report-dir', mkdtempSync(join(tmpdir(), 'cc-observe-report-'))], { env: setup.env });
        // Once the first result is out, the run holds its pool (and is in the middle of its cases).
        await firstResultLine(started);
        expect(await connectionsOf(server(), user)).toBeGreaterThan(0);
        started.child.kill('SIGINT');
        // The run writes what it can say and ends 130 (docs/command-line.md: signals).
        expect(await started.exit).toBe(130);
        expect(await noConnectionsLeft(server(), user)).toBe(0);
      } finally {
        await setup.close();
      }
    });
    it('in a process that lives on (the library): the pool is closed after a run, and after a check that fails', async () => {
      const setup = await setUp(server());
      const user = `watch_${kind}_${++counter}`;
      try {
        await newUser(server(), user, 'watcher-Secret-3');
        const url = withUser(setup.url, user, 'watcher-Secret-3');
        const load = (changes: Record<string, unknown>) => {
          const target = parseTarget(JSON.parse(readFileSync(setup.target(changes, url), 'utf8')) as unknown, setup.env);
          if (target.side !== 'receiver') throw new Error('a receiver target was expected');
          return target;
        };
        const { results } = await runSide({ target: load({}), seed: 5, only: 'receiver.outcome' });
        expect(results.map((r) => r.verdict)).toEqual(Array(7).fill('PASS'));
        expect(await noConnectionsLeft(server(), user)).toBe(0);
        const failed = await runSide({ target: load({ read: `SELECT status FROM ${w.table} WHERE ${w.idColumn} = :transaction_id` }), seed: 5 }).then(() => undefined, (e: unknown) => e);
        expect(failed).toBeInstanceOf(ObserveCheckError);
        expect((failed as ObserveCheckError).pointer).toBe('/observe/read');
        expect(await noConnectionsLeft(server(), user)).toBe(0);
      } finally {
        await setup.close();
      }
    });
    it('a lock held elsewhere: the statement that waits for it fails naming the lock; once released, reads go on', async () => {
      const setup = await setUp(server());
      const observation = await observationOn(setup, 3000);
      const observer = observation.forCase({ http: { send: () => Promise.reject(new Error('no HTTP')), pace: 'unpaced' }, wire: OPEN_WIRE, signal: new AbortController().signal });
      // One connection, so the lock and its release are the same session's.
      const locker = await open(setup.url, 1);
      try {
        let release = () => {};
        const held = new Promise<void>((resolve) => { release = resolve; });
        let locked = () => {};
        const taken = new Promise<void>((resolve) => { locked = resolve; });
        const holding = kind === 'postgresql'
          ? locker.transaction(async (session) => {
            await session.run(sql(`LOCK TABLE ${w.table} IN ACCESS EXCLUSIVE MODE`), {});
            locked();
            await held;
          }, 'commit')
          : (async () => {
            await locker.execute(`LOCK TABLES ${w.table} WRITE`);
            locked();
            await held;
            await locker.execute('UNLOCK TABLES');
          })();
        await taken;
        const error = await observer.read('cc-locked-1').then(() => undefined, (e: unknown) => e);
        release();
        await holding;
        expect(error).toBeInstanceOf(ObserveError);
        expect((error as Error).message).toMatch(kind === 'postgresql'
          ? /^the read statement waited for a lock held elsewhere past its limit of 2400 ms: PostgreSQL: canceling statement due to lock timeout \(55P03\)$/
          : /^the read statement waited for a lock held elsewhere past its limit of 2000 ms: MySQL\/MariaDB: Lock wait timeout exceeded; try restarting transaction \(ER_LOCK_WAIT_TIMEOUT\)$/);
        expect(await observer.read('cc-locked-1')).toBeNull();
      } finally {
        await locker.close();
        await observation.close();
        await setup.close();
      }
    });
    it('a connection dropped in the middle of a statement: that read fails naming it; the next read opens another', async () => {
      const setup = await setUp(server());
      const example = JSON.parse(readFileSync(join(ROOT, 'examples/observe', EXAMPLE[kind], 'target.json'), 'utf8')) as { observe: { read: string } };
      // The read takes 5 s for the one record the test drops the connection under.
      const read = `${example.observe.read} AND (:transaction_id <> 'cc-slow' OR ${w.sleep(5)})`;
      const observation = await observationOn(setup, 10_000, { read });
      const observer = observation.forCase({ http: { send: () => Promise.reject(new Error('no HTTP')), pace: 'unpaced' }, wire: OPEN_WIRE, signal: new AbortController().signal });
      try {
        await observer.seed('cc-slow', '10.00');
        const reading = observer.read('cc-slow').then(() => undefined, (e: unknown) => e);
        // The statement is under way: end its connection from the server's side.
        await until(async () => (await killObserverStatements(server())) > 0);
        const error = await reading;
        expect(error).toBeInstanceOf(ObserveError);
        expect((error as Error).message).toMatch(kind === 'postgresql'
          ? /^the connection to the database dropped during the read statement: PostgreSQL: (terminating connection due to administrator command \(57P01\)|Connection terminated unexpectedly)$/
          : /^the connection to the database dropped during the read statement: MySQL\/MariaDB: (Connection lost: The server closed the connection\. \(PROTOCOL_CONNECTION_LOST\)|Query execution was interrupted \(ER_QUERY_INTERRUPTED\))$/);
        expect(await observer.read('cc-after-the-drop')).toBeNull();
      } finally {
        await observation.close();
        await setup.close();
      }
    });
  });

  describe(`the password on ${kind} is a secret everywhere, also inside the database's own messages`, () => {
    it('a message of the database that quotes the password shows it redacted', async () => {
      const setup = await setUp(server());
      const db = await open(setup.url);
      try {
        const password = passwordOf(setup.url);
        const quoted = kind === 'postgresql' ? `"${password}"` : `\`${password}\``;
        const error = await db.execute(`SELECT * FROM ${quoted}`).then(() => undefined, (e: unknown) => e);
        expect(error).toBeInstanceOf(DatabaseError);
        expect((error as Error).message).toContain('[REDACTED]');
        expect((error as Error).message).not.toContain(password);
      } finally {
        await db.close();
        await setup.close();
      }
    });
    it('a failing run: neither the output nor any report file holds the password', async () => {
      const setup = await setUp(server());
      try {
        const reportDir = mkdtempSync(join(tmpdir(), 'cc-observe-report-'));
        const ran = await runBin(['run', '--target', setup.target({ read: `SELECT status AS state FROM ${w.table} WHERE ${w.idColumn} = :transaction_id AND status <> 'x'` }), '--report-dir', reportDir, '--only', 'receiver.outcome'], { env: setup.env, timeoutMs: 60_000 });
        expect(ran.code, ran.stderr).toBe(0);
        const files = readdirSync(reportDir).map((f) => readFileSync(join(reportDir, f), 'utf8'));
        const password = passwordOf(setup.url);
        expectNoSecret([ran.stdout, ran.stderr, ...files].join('\n'), password, encodeURIComponent(password), setup.url);
        expect(files.join('\n')).toContain('"env": "RECEIVER_DATABASE_URL"');
      } finally {
        await setup.close();
      }
    });
  });
}

/** PostgreSQL text without parameters, as a statement. */
function sql(text: string) {
  const compiled = compileStatement(text, 'postgres', []);
  if (!compiled.ok) throw new Error(compiled.problem);
  return compiled.statement;
}

async function open(url: string, poolSize = 2): Promise<Database> {
  const parsed = parseDatabaseUrl(url);
  if (!parsed.ok) throw new Error(parsed.problem);
  return openDatabase(parsed.value, { statementTimeoutMs: 30_000, poolSize, applicationName: 'tests' });
}

/** The observation a run of the example's target would open, with `changes`, and `statementTimeoutMs`. */
async function observationOn(setup: Setup, statementTimeoutMs: number, changes: Record<string, unknown> = {}): Promise<SqlObservation> {
  const target = parseTarget(JSON.parse(readFileSync(setup.target(changes), 'utf8')) as unknown, setup.env);
  if (target.side !== 'receiver' || target.observe?.kind !== 'sql') throw new Error('a sql observe was expected');
  return SqlObservation.open(target.observe, { statementTimeoutMs });
}

/** Ends, from the server's side, the connections of the observer running a statement now; how many. */
async function killObserverStatements(server: TestDatabaseServer): Promise<number> {
  if (server.kind === 'postgresql') {
    const rows = await server.execute("SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = 'collect-conformance observe' AND state = 'active'");
    return rows.length;
  }
  const rows = await server.execute("SELECT ID AS id FROM information_schema.PROCESSLIST WHERE INFO LIKE '%cc-slow%' AND INFO NOT LIKE '%PROCESSLIST%'");
  for (const row of rows) await server.execute(`KILL ${String(row.id)}`);
  return rows.length;
}

async function until(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
