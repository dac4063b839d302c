// A database URL from the environment (`postgres://`, `postgresql://`, `mysql://`, `mariadb://`):
// which driver speaks it, and the secrets in it, so that no output ever shows them.

export type Dialect = 'postgres' | 'mysql';

/** How the products are named to people. */
export const PRODUCT: Readonly<Record<Dialect, string>> = { postgres: 'PostgreSQL', mysql: 'MySQL/MariaDB' };

const SCHEMES: Readonly<Record<string, Dialect>> = {
  'postgres:': 'postgres',
  'postgresql:': 'postgres',
  'mysql:': 'mysql',
  'mariadb:': 'mysql',
};

export interface DatabaseUrl {
  dialect: Dialect;
  /** The URL as given (secret: it carries the password). */
  url: string;
  /** The pieces a driver is given: never the URL text, so a driver's message cannot quote it. */
  host: string;
  port: number | undefined;
  user: string;
  /** Decoded; '' when the URL has none (trust or peer authentication). */
  password: string;
  database: string;
  /** Every text in which the password may show up, for a Redactor: the URL, the password as written and decoded. */
  secrets: string[];
  /** The URL with the password replaced, for messages: `postgresql://app:***@127.0.0.1:5432/shop`. */
  shown: string;
}

export type ParsedDatabaseUrl = { ok: true; value: DatabaseUrl } | { ok: false; problem: string };

/** Parses `text` without ever quoting it: a problem names what is wrong, not the value. */
export function parseDatabaseUrl(text: string): ParsedDatabaseUrl {
  if (!URL.canParse(text)) return { ok: false, problem: 'does not hold a URL (scheme://user:password@host:port/database)' };
  const url = new URL(text);
  const dialect = SCHEMES[url.protocol];
  if (!dialect) {
    return { ok: false, problem: `holds a "${url.protocol}" URL; a postgres://, postgresql://, mysql:// or mariadb:// URL is needed` };
  }
  if (url.hostname === '') return { ok: false, problem: 'holds a URL without a host' };
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (database === '' || database.includes('/')) return { ok: false, problem: 'holds a URL without a database name (…/name)' };
  let password: string;
  let user: string;
  try {
    password = decodeURIComponent(url.password);
    user = decodeURIComponent(url.username);
  } catch {
    return { ok: false, problem: 'holds a user name or password that is not valid percent-encoding' };
  }
  const secrets = [text, url.password, password].filter((s) => s.length > 0);
  const shownUrl = new URL(text);
  if (shownUrl.password !== '') shownUrl.password = '***';
  return {
    ok: true,
    value: {
      dialect,
      url: text,
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port === '' ? undefined : Number(url.port),
      user,
      password,
      database,
      secrets: [...new Set(secrets)],
      shown: shownUrl.toString(),
    },
  };
}
