// Types of throwaway-database.mjs, for the TypeScript tests that start servers with it.
export interface ThrowawayDatabase {
  kind: 'postgresql' | 'mariadb';
  /** postgresql://app:…@127.0.0.1:PORT/shop or mariadb://app:…@127.0.0.1:PORT/shop */
  url: string;
  /** The same user on the server's own database, for creating databases. */
  adminUrl: string;
  dir: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}
export function startThrowawayDatabase(kind: 'postgresql' | 'mariadb', options?: { detached?: boolean; database?: string }): Promise<ThrowawayDatabase>;
export function stopThrowawayDatabase(dir: string): Promise<void>;
export function postgresBin(): string | undefined;
