// Every driver call goes through here: a driver's error becomes a DatabaseError of a stable
// kind, worded with the database's own message and never any secret of the URL.
import type { Redactor } from '../secrets/index.ts';
import { databaseMessage, DatabaseError, failureOf } from './errors.ts';
import { PRODUCT, type DatabaseUrl, type Dialect } from './url.ts';

export interface Wrap {
  /** Opening a connection: a failure names where (the URL without its password). */
  connect<T>(open: () => Promise<T>): Promise<T>;
  statement<T>(run: () => Promise<T>): Promise<T>;
}

/** A DatabaseError keeps the driver's error as `cause`, so the caller can tell whether the connection is still usable. */
export function wrapped(dialect: Dialect, url: DatabaseUrl, redactor: Redactor): Wrap {
  const convert = (error: unknown, connecting: boolean): DatabaseError => {
    if (error instanceof DatabaseError) return error;
    const { failure, code } = failureOf(dialect, error);
    const where = connecting || failure === 'connect' || failure === 'auth' ? ` at ${url.shown}` : '';
    const converted = new DatabaseError(
      failure,
      redactor.text(`${PRODUCT[dialect]}${where}: ${databaseMessage(error)}${code && !/^E[A-Z]+$/.test(code) ? ` (${code})` : ''}`),
      code,
    );
    Object.defineProperty(converted, 'cause', { value: error, enumerable: false });
    return converted;
  };
  return {
    async connect(open) {
      try {
        return await open();
      } catch (error) {
        throw convert(error, true);
      }
    },
    async statement(run) {
      try {
        return await run();
      } catch (error) {
        throw convert(error, false);
      }
    },
  };
}
