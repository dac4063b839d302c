// The kit's tests in two tiers, both run by CI (.ci/run runs the README's two test commands):
// - `npm test` (about 90 s on two cores): the type check and every other suite: each rule's
//   cases against faulty and correct targets, the harness's units, properties and vectors;
// - `npm run test:e2e` (about three minutes): what drives the kit end to end as its users do, or
//   sweeps every fault of every reference through every case, listed here with why.
export const E2E_SUITES: ReadonlyArray<{ file: string; why: string }> = [
  { file: 'suites/docs/commands.test.ts', why: 'every command block of the README and docs/, run as written' },
  { file: 'suites/package/tarball.test.ts', why: 'the packed tarball installed in a new project: its bin, imports, types and vitest suite' },
  { file: 'suites/package/checkout-bin.test.ts', why: 'the command of a checkout, through tsx and compiled' },
  { file: 'suites/cases/cli-run.test.ts', why: 'whole runs of the command against the references' },
  { file: 'suites/client/documented-deadline.test.ts', why: 'the documented SDK target file at its full 10 s deadline' },
  { file: 'suites/signer-protocol/cli.test.ts', why: 'whole vectors runs of the command against signers' },
  { file: 'suites/hostile/hostile-targets.test.ts', why: 'targets that hang, reset, drip and die, each run bounded in time and memory' },
  { file: 'suites/report/browser.test.ts', why: 'the HTML report in Chromium' },
  { file: 'suites/observe/observe-postgres.test.ts', why: 'a receiver observed through a throwaway PostgreSQL server' },
  { file: 'suites/observe/observe-mariadb.test.ts', why: 'a receiver observed through a throwaway MariaDB server' },
  { file: 'suites/observe/command.test.ts', why: 'a receiver observed through a command of its own' },
  { file: 'suites/self-test/receiver-faults.test.ts', why: 'every receiver fault against every receiver case' },
  { file: 'suites/self-test/service-faults.test.ts', why: 'every service fault against every service case' },
  { file: 'suites/self-test/client-faults.test.ts', why: 'every SDK fault against every client case' },
];

export const E2E_FILES: readonly string[] = E2E_SUITES.map((s) => s.file);
