// The `observe` key of a receiver target file (DESIGN.md "Observing a receiver as it is"), as
// loaded: the database URL from the environment (a secret, never echoed or shown), statements
// compiled for that database, states checked, hooksUrl turned into the hooks kind. A bad file is
// refused before any case, naming the JSON path (exit 2 from the command line).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RECEIVER_CASES } from '../../harness/cases/index.ts';
import { loadTargetFile, parseTarget, redactTarget, secretsOf, TargetFileError, type ResolvedReceiverTarget } from '../../harness/targets/index.ts';
import { firstUnmet } from '../../harness/runner/index.ts';

const PASSWORD = 'pw-Secret-4711';
const URL_TEXT = `postgresql://app:${PASSWORD}@127.0.0.1:5432/shop`;
const ENV = { RECEIVER_DATABASE_URL: URL_TEXT, TOKEN: 'a-callback-token-1' };

const OBSERVE = {
  database: { env: 'RECEIVER_DATABASE_URL' },
  seed: "INSERT INTO orders (ref, amount, status) VALUES (:transaction_id, :amount, 'new')",
  read: 'SELECT status AS state FROM orders WHERE ref = :transaction_id::text',
  actions: 'SELECT count(*) AS actions FROM wallet_ledger WHERE order_ref = :transaction_id',
  states: { SUCCESS: ['paid', 'fulfilled'], FAILED: ['failed'], pending: ['pending', 'new'] },
};

function file(observe: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { side: 'receiver', callbackUrl: 'http://127.0.0.1:8081/callback', callbackToken: { env: 'TOKEN' }, observe, ...extra };
}

function receiver(value: unknown, env: Record<string, string> = ENV): ResolvedReceiverTarget {
  const target = parseTarget(value, env);
  if (target.side !== 'receiver') throw new Error('not a receiver');
  return target;
}

function refusal(value: unknown, env: Record<string, string> = ENV): string {
  try {
    parseTarget(value, env);
  } catch (error) {
    expect(error).toBeInstanceOf(TargetFileError);
    return (error as TargetFileError).message;
  }
  throw new Error('the target was accepted');
}

describe('a database observe, loaded', () => {
  it('the URL from the environment, its dialect, the statements compiled for it', () => {
    const target = receiver(file(OBSERVE));
    expect(target.observe?.kind).toBe('sql');
    if (target.observe?.kind !== 'sql') return;
    expect(target.observe.database.dialect).toBe('postgres');
    expect(target.observe.read.text).toBe('SELECT status AS state FROM orders WHERE ref = $1::text');
    expect(target.observe.seed?.names).toEqual(['transaction_id', 'amount']);
    expect(target.observe.states).toEqual(OBSERVE.states);
  });
  it('mysql:// and mariadb:// URLs are the MySQL driver\'s', () => {
    for (const scheme of ['mysql', 'mariadb']) {
      const target = receiver(file(OBSERVE), { ...ENV, RECEIVER_DATABASE_URL: URL_TEXT.replace('postgresql', scheme) });
      expect(target.observe?.kind === 'sql' && target.observe.database.dialect).toBe('mysql');
      expect(target.observe?.kind === 'sql' && target.observe.read.text).toBe('SELECT status AS state FROM orders WHERE ref = ?::text');
    }
  });
  it('the password is a secret of the run; the report shows the variable, never the URL', () => {
    const target = receiver(file(OBSERVE));
    expect(secretsOf(target)).toEqual(expect.arrayContaining([URL_TEXT, PASSWORD]));
    const shown = redactTarget(target);
    expect(shown.observe).toEqual({ ...OBSERVE, database: { env: 'RECEIVER_DATABASE_URL', value: '[REDACTED]' } });
    expect(JSON.stringify(shown)).not.toContain(PASSWORD);
  });
  it('hooksUrl is the hooks way, shown as the file names it', () => {
    const target = receiver({ ...file(undefined), observe: undefined, hooksUrl: 'http://127.0.0.1:8081/_conformance' });
    expect(target.observe).toEqual({ kind: 'hooks', url: 'http://127.0.0.1:8081/_conformance' });
    expect(redactTarget(target).hooksUrl).toBe('http://127.0.0.1:8081/_conformance');
  });
  it('a command observe, with its own states', () => {
    const target = receiver(file({ command: 'python3 observer.py', states: { SUCCESS: ['paid'] } }));
    expect(target.observe).toEqual({ kind: 'command', command: 'python3 observer.py', states: { SUCCESS: ['paid'] } });
  });
  it('a command observe read from a file runs in the file\'s folder (a relative path in it means what it does beside the target)', () => {
    const folder = mkdtempSync(join(tmpdir(), 'cc-target-'));
    writeFileSync(join(folder, 'receiver.json'), JSON.stringify(file({ command: 'python3 observer.py orders.sqlite3' })));
    const target = loadTargetFile(join(folder, 'receiver.json'), ENV);
    expect(target.side === 'receiver' && target.observe).toEqual({ kind: 'command', command: 'python3 observer.py orders.sqlite3', cwd: folder });
    rmSync(folder, { recursive: true });
  });
});

describe('a bad observe is refused before any case, naming the key', () => {
  const cases: Array<[string, unknown, Record<string, string> | undefined, RegExp]> = [
    ['the URL written in the file', file({ ...OBSERVE, database: URL_TEXT }), undefined, /\/observe\/database: secrets are not written in target files; use \{"env": "NAME"\}/],
    ['the variable not set', file(OBSERVE), { TOKEN: ENV.TOKEN }, /\/observe\/database: environment variable RECEIVER_DATABASE_URL is not set/],
    ['not a database URL', file(OBSERVE), { ...ENV, RECEIVER_DATABASE_URL: `https://app:${PASSWORD}@db.example/shop` }, /\/observe\/database: environment variable RECEIVER_DATABASE_URL holds a "https:" URL; a postgres:\/\/, postgresql:\/\/, mysql:\/\/ or mariadb:\/\/ URL is needed/],
    ['no database name', file(OBSERVE), { ...ENV, RECEIVER_DATABASE_URL: `postgres://app:${PASSWORD}@127.0.0.1:5432` }, /environment variable RECEIVER_DATABASE_URL holds a URL without a database name/],
    ['a password too short to redact', file(OBSERVE), { ...ENV, RECEIVER_DATABASE_URL: 'postgres://app:secret@127.0.0.1/shop' }, /\/observe\/database: environment variable RECEIVER_DATABASE_URL \(its password\) holds 6 character\(s\); secrets of fewer than 8 cannot be redacted safely/],
    ['a positional parameter', file({ ...OBSERVE, read: 'SELECT status AS state FROM orders WHERE ref = $1' }), undefined, /\/observe\/read: \$1 at character 48: write :transaction_id or :amount instead/],
    ['a statement without :transaction_id', file({ ...OBSERVE, actions: 'SELECT count(*) AS actions FROM wallet_ledger' }), undefined, /\/observe\/actions: uses no :transaction_id: every transaction would get the same rows/],
    ['a value under two states', file({ ...OBSERVE, states: { SUCCESS: ['done'], FAILED: ['done'] } }), undefined, /\/observe\/states: the value "done" is listed under both SUCCESS and FAILED/],
    ['hooksUrl and observe both', file(OBSERVE, { hooksUrl: 'http://127.0.0.1:8081/_conformance' }), undefined, /\/observe: hooksUrl and observe are alternatives/],
    ['no read statement', file({ database: OBSERVE.database, seed: OBSERVE.seed }), undefined, /\/observe\/read: is required/],
    ['a key the way does not have', file({ command: 'x', read: OBSERVE.read }), undefined, /\/observe\/read: unknown key/],
  ];
  for (const [what, value, env, message] of cases) {
    it(`${what}: ${message.source.slice(0, 60)}…`, () => {
      const text = refusal(value, env);
      expect(text).toMatch(message);
      expect(text).not.toContain(PASSWORD);
    });
  }
});

describe('what a case needs of observe: records, seed, actions', () => {
  const token = { callbackToken: { env: 'TOKEN' } };
  // The confirm cases need a receiver that confirms outcomes (`confirms`), whatever shows its records.
  const observed = RECEIVER_CASES.filter((c) => !c.needs.includes('confirms'));
  const unmet = (observe: unknown) => {
    const target = receiver(file(observe, token));
    return Object.fromEntries(observed.map((c) => [c.id, firstUnmet(target, c.needs)]).filter(([, reason]) => reason !== undefined));
  };
  it(`with seed, read and actions every one of the ${observed.length} receiver cases that need no "confirms" runs (none needs the hooks)`, () => {
    expect(observed.length).toBe(33);
    expect(unmet(OBSERVE)).toEqual({});
  });
  it('without actions: exactly the cases whose verdict rests on the count are SKIP, saying why', () => {
    const { actions: _, ...noActions } = OBSERVE;
    const skipped = unmet(noActions);
    expect(Object.keys(skipped).sort()).toEqual(['receiver.idempotence.after-applied', 'receiver.idempotence.concurrent-duplicates', 'receiver.idempotence.sequential-duplicate']);
    expect(new Set(Object.values(skipped))).toEqual(new Set(["the target's observe names no actions statement: this case's verdict rests on the count of outcomes applied (a duplicate applied twice leaves the state as it was)"]));
  });
  it('without seed: every case that needs a seeded record is SKIP, saying why; the unknown id is still read', () => {
    const { seed: _, ...noSeed } = OBSERVE;
    const skipped = unmet(noSeed);
    expect(skipped['receiver.outcome.unknown-id']).toBeUndefined();
    expect(skipped['receiver.outcome.success-applied']).toBe("the target's observe names no seed statement: the harness cannot make the pending record this case needs");
    expect(Object.keys(skipped)).toHaveLength(observed.filter((c) => c.needs.includes('seed')).length);
  });
});
