// Programs besides Node and Python 3 that some suites run (a fresh machine has only those). A
// test that needs a missing one is skipped on a developer's machine and named at the end of the
// run (suites/support/missing-programs-reporter.ts, printed last by bin/test.js); under CI=true a
// missing program is a failing test, so CI never hides a gap. `.ci/run` installs them all.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { describe, it } from 'vitest';

export interface Program {
  /** What it is, for people: "PHP". */
  title: string;
  /** What the tests that need it prove. */
  neededFor: string;
  /** The Debian install command, as .ci/run runs it. */
  install: string;
  /** Whether it is on this machine. */
  present(): boolean;
}

function runs(command: string, args: readonly string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/** Debian keeps a PostgreSQL server's programs under /usr/lib/postgresql/<major>/bin, off PATH. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root).filter((d) => /^\d+$/.test(d)).sort((a, b) => Number(b) - Number(a));
  return majors.map((m) => `${root}/${m}/bin`).find((dir) => existsSync(`${dir}/initdb`) && existsSync(`${dir}/postgres`));
}

export const PROGRAMS = {
  php: {
    title: 'PHP',
    neededFor: 'the PHP fixture signers, the PHP SDK and signer adapters and the checks of the PHP number printer and key order (ksort)',
    install: 'apt-get install -y php-cli',
    present: () => runs('php', ['--version']),
  },
  ruby: {
    title: 'Ruby',
    neededFor: 'the Ruby fixture signers, the Ruby SDK and signer adapters and the checks of its number and string printers',
    install: 'apt-get install -y ruby',
    present: () => runs('ruby', ['--version']),
  },
  phpunit: {
    title: 'PHPUnit 9',
    neededFor: 'the PHPUnit vectors runner (examples/vectors-runners/php)',
    install: 'apt-get install -y phpunit',
    present: () => runs('phpunit', ['--version']),
  },
  pytest: {
    title: 'pytest for python3',
    neededFor: 'the pytest vectors runner (examples/vectors-runners/python), run as `python3 -m pytest`; a python3 that is not Debian\'s (pyenv, a venv) needs its own pytest',
    install: 'apt-get install -y python3-pytest',
    present: () => runs('python3', ['-m', 'pytest', '--version']),
  },
  minitest: {
    title: 'minitest for Ruby',
    neededFor: 'the minitest vectors runner (examples/vectors-runners/ruby)',
    install: 'apt-get install -y ruby-minitest',
    present: () => runs('ruby', ['-e', 'require "minitest"']),
  },
  jdk: {
    title: 'a JDK (javac)',
    neededFor: 'the check of the Java number printer (Double.toString)',
    install: 'apt-get install -y default-jdk-headless',
    present: () => runs('javac', ['-version']),
  },
  chromium: {
    title: 'Chromium',
    neededFor: 'the browser test of the HTML report',
    install: 'apt-get install -y chromium',
    present: () => existsSync('/usr/bin/chromium') && runs('/usr/bin/chromium', ['--version']),
  },
  postgresql: {
    title: 'a PostgreSQL server',
    neededFor: 'observing a receiver through its PostgreSQL database',
    install: 'apt-get install -y postgresql',
    present: () => postgresBinDir() !== undefined,
  },
  mariadb: {
    title: 'a MariaDB server',
    neededFor: 'observing a receiver through its MariaDB/MySQL database',
    install: 'apt-get install -y mariadb-server',
    present: () => runs('mariadbd', ['--version']) || existsSync('/usr/sbin/mariadbd'),
  },
} as const satisfies Record<string, Program>;

export type ProgramName = keyof typeof PROGRAMS;
export const PROGRAM_NAMES = Object.keys(PROGRAMS) as ProgramName[];

const seen = new Map<ProgramName, boolean>();

export function isPresent(name: ProgramName): boolean {
  let present = seen.get(name);
  if (present === undefined) {
    present = PROGRAMS[name].present();
    seen.set(name, present);
  }
  return present;
}

export function missingOf(names: readonly ProgramName[]): ProgramName[] {
  return names.filter((n) => !isPresent(n));
}

/** The tag every test that needs programs carries in its full name; the reporter counts by it. */
export function needsTag(names: readonly ProgramName[]): string {
  return `[needs ${names.join(', ')}]`;
}

export function requiredInCi(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.CI === 'true' || env.CI === '1';
}

/**
 * A describe block whose tests need `names`: run when all are present; otherwise skipped (named
 * at the end of the run), or under CI=true one failing test naming what is missing.
 */
export function describeNeeding(
  names: readonly ProgramName[],
  title: string,
  body: () => void,
  options: { concurrent?: boolean } = {},
): void {
  const missing = missingOf(names);
  const fullTitle = `${title} ${needsTag(names)}`;
  if (missing.length > 0 && requiredInCi()) {
    describe(fullTitle, () => {
      it(`requires ${missing.map((n) => PROGRAMS[n].title).join(' and ')} under CI=true`, () => {
        throw new Error(missing.map((n) => `${PROGRAMS[n].title} is missing (needed for ${PROGRAMS[n].neededFor}): ${PROGRAMS[n].install}`).join('; '));
      });
    });
    return;
  }
  const run = missing.length > 0 ? describe.skip : options.concurrent ? describe.concurrent : describe;
  run(fullTitle, body);
}
