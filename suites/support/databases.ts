// Throwaway database servers for the tests that observe a receiver through its database: one
// PostgreSQL or MariaDB server per test file (started in beforeAll, stopped in afterAll), in a
// temporary folder on a loopback port, by the same script docs/observe.md shows
// (examples/observe/throwaway-database.mjs). Each test takes a fresh database of its own on it,
// so tests share the server, never its tables. Use inside describeNeeding(['postgresql'] / ['mariadb']).
import { afterAll, beforeAll } from 'vitest';
import { startThrowawayDatabase, type ThrowawayDatabase } from '../../examples/observe/throwaway-database.mjs';
import { openDatabase, parseDatabaseUrl } from '../../harness/database/index.ts';

export type DatabaseKind = 'postgresql' | 'mariadb';

export interface TestDatabaseServer {
  kind: DatabaseKind;
  /** The server's default database `shop`. */
  url: string;
  /** A new, empty database on this server; its URL. */
  fresh(name: string): Promise<string>;
  /** Runs administrative SQL (no parameters). */
  execute(sql: string): Promise<Array<Record<string, unknown>>>;
}

/** Numbers the databases this process makes, so a name is made once. */
let counter = 0;

async function started(server: ThrowawayDatabase): Promise<TestDatabaseServer & { close(): Promise<void> }> {
  const parsed = parseDatabaseUrl(server.adminUrl);
  if (!parsed.ok) throw new Error(parsed.problem);
  const admin = await openDatabase(parsed.value, { statementTimeoutMs: 30_000, poolSize: 2, applicationName: 'tests admin' });
  const execute = async (sql: string) => (await admin.execute(sql)).rows;
  return {
    kind: server.kind,
    url: server.url,
    execute,
    async fresh(name) {
      const database = `${name.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${++counter}`;
      await execute(`CREATE DATABASE ${database}`);
      const url = new URL(server.url);
      url.pathname = `/${database}`;
      return url.toString();
    },
    async close() {
      await admin.close();
      await server.stop();
    },
  };
}

/**
 * A server of `kind` for the tests of the enclosing describe: started before them, stopped
 * after. The returned function gives it to a test.
 */
export function useDatabaseServer(kind: DatabaseKind): () => TestDatabaseServer {
  let server: (TestDatabaseServer & { close(): Promise<void> }) | undefined;
  beforeAll(async () => {
    server = await started(await startThrowawayDatabase(kind));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  }, 30_000);
  return () => {
    if (!server) throw new Error(`the ${kind} server did not start`);
    return server;
  };
}
