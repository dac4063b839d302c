// The drivers are optional peer dependencies (pure JavaScript: pg, mysql2), loaded only when a
// target names such a database, like Pact for `pact verify`. A missing one is named with the
// command that installs it.
import { DatabaseError } from './errors.ts';
import { PRODUCT, type Dialect } from './url.ts';

export const DRIVERS: Readonly<Record<Dialect, { package: string; range: string; module: string }>> = {
  postgres: { package: 'pg', range: '^8.23', module: 'pg' },
  mysql: { package: 'mysql2', range: '^3.24', module: 'mysql2/promise' },
};

/** The command that installs the driver of `dialect`, as messages and the documentation say it. */
export function installCommand(dialect: Dialect): string {
  const driver = DRIVERS[dialect];
  return `npm install --save-dev ${driver.package}@${driver.range}`;
}

/** The driver's module, untyped: each dialect's file states the little of it that it uses. */
export async function loadDriver(dialect: Dialect): Promise<unknown> {
  const driver = DRIVERS[dialect];
  // A specifier in a variable: the package is optional, so neither TypeScript nor a bundler may require it.
  const specifier: string = driver.module;
  try {
    const loaded: unknown = await import(specifier);
    return loaded;
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    const missing = (e.code === 'ERR_MODULE_NOT_FOUND' || e.code === 'MODULE_NOT_FOUND') && String(e.message).includes(`'${driver.package}`);
    if (!missing) throw error;
    throw new DatabaseError(
      'driver-missing',
      `a ${PRODUCT[dialect]} database needs the driver ${driver.package}, an optional peer dependency that is not installed: run \`${installCommand(dialect)}\` (in the project that installs collect-conformance) and try again`,
    );
  }
}

/** One export of a CommonJS package imported from ESM, whichever way the loader presents it. */
export function exportOf(module: unknown, name: string): unknown {
  const m = (module ?? {}) as Record<string, unknown>;
  return m[name] ?? ((m.default ?? {}) as Record<string, unknown>)[name];
}
