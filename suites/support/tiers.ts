// The kit's tests in two tiers, both run by CI (.ci/run runs the README's two test commands):
// - `npm test` (the goal is 90 s on two cores): the type check and every other suite: each rule's
//   cases against faulty and correct targets, the harness's units, properties and vectors;
// - `npm run test:e2e` (about eight minutes, a first Artillery install included): what drives the kit end to end as its users do, or
//   sweeps every fault of every reference through every case, listed here with why.
// The end-to-end tier runs in three groups, one after the other (vitest.e2e.config.ts): first the
// suites whose verdicts rest on scaled timing (callbacks awaited about a second, retry intervals),
// then the ones that keep both cores busy (package installs, docs blocks four at once, whole
// runs), which starved the first (stalls of 400 ms, callbacks past their second) when together;
// last the ones moved out of `npm test` because a child process is their subject (child vitest
// runs, the command as installed, other runners): CPU-heavy, none resting on tight timing, and
// beside the busy group's whole embedded runs they stalled its confirming receiver past its limit.
export type E2eGroup = 'timed' | 'busy' | 'processes';

export const E2E_SUITES: ReadonlyArray<{ file: string; group: E2eGroup; why: string }> = [
  { file: 'suites/docs/commands.test.ts', group: 'busy', why: 'every command block of the README and docs/, run as written' },
  { file: 'suites/package/tarball.test.ts', group: 'busy', why: 'the packed tarball installed in a new project: its bin, imports, types and vitest suite' },
  { file: 'suites/package/checkout-bin.test.ts', group: 'busy', why: 'the command of a checkout, through tsx and compiled' },
  { file: 'suites/cases/cli-run.test.ts', group: 'busy', why: 'whole runs of the command against the references' },
  { file: 'suites/client/documented-deadline.test.ts', group: 'timed', why: 'the documented SDK target file at its full 10 s deadline' },
  { file: 'suites/client/adapter-faults.test.ts', group: 'timed', why: 'an adapter child process that crashes, hangs, writes garbage and answers for another id, restarted each time; its verdicts rest on each call\'s deadline (about 10 s, node children)' },
  { file: 'suites/client/adapter-crashes.test.ts', group: 'timed', why: 'an adapter child process that crashes several times in a row, restarted each time; its verdicts rest on each call\'s deadline (about 10 s, node children)' },
  { file: 'suites/cases/wire-whole-run.test.ts', group: 'timed', why: 'every receiver case at once behind a recording proxy, and behind one that answers the measurements seconds late' },
  { file: 'suites/signer-protocol/cli.test.ts', group: 'busy', why: 'whole vectors runs of the command against signers' },
  { file: 'suites/hostile/hostile-targets.test.ts', group: 'busy', why: 'targets that hang, reset, drip and die, each run bounded in time and memory' },
  { file: 'suites/languages/vectors-runners.test.ts', group: 'busy', why: 'the vectors runners in PHPUnit, node:test, pytest and minitest, each framework run as a child process, correct and with two signer faults' },
  { file: 'suites/languages/adapters.test.ts', group: 'busy', why: 'the PHP and Ruby SDK adapters through whole client runs, and the PHP and Ruby signer adapters through vectors runs' },
  { file: 'suites/signer-protocol/lang-signers.test.ts', group: 'busy', why: 'real signers in PHP, Python, Ruby and Java over the published vectors, each a child process of its own toolchain (about 15 s of CPU)' },
  { file: 'suites/signing/printers.test.ts', group: 'busy', why: 'the printers of the signing model against the real PHP, Python, Ruby and Java, one process of each toolchain (about 12 s, Java\'s start-up most of it)' },
  { file: 'suites/client/example-adapters.test.ts', group: 'busy', why: 'the Python and Node example adapters, and a PHP SDK, through whole client runs (about 10 s of CPU)' },
  { file: 'suites/report/browser.test.ts', group: 'busy', why: 'the HTML report in Chromium' },
  { file: 'suites/observe/observe-postgres.test.ts', group: 'timed', why: 'a receiver observed through a throwaway PostgreSQL server' },
  { file: 'suites/observe/observe-mariadb.test.ts', group: 'timed', why: 'a receiver observed through a throwaway MariaDB server' },
  { file: 'suites/observe/command.test.ts', group: 'timed', why: 'a receiver observed through a command of its own' },
  { file: 'suites/observe/read-many-sql.test.ts', group: 'timed', why: 'many records per statement (the batch form of the target\'s statements) on throwaway PostgreSQL and MariaDB servers' },
  { file: 'suites/self-test/receiver-faults.test.ts', group: 'timed', why: 'every receiver fault against every receiver case' },
  { file: 'suites/self-test/service-faults.test.ts', group: 'timed', why: 'every service fault against every service case' },
  { file: 'suites/self-test/client-faults.test.ts', group: 'timed', why: 'every SDK fault against every client case' },
  { file: 'suites/self-test/storm-faults.test.ts', group: 'timed', why: 'every volume fault of the receiver, and its shedding mode, against every receiver case' },
  { file: 'suites/cli/interrupt.test.ts', group: 'processes', why: 'the command as installed, signalled midway through runs of each kind (child processes and their process groups)' },
  { file: 'suites/client/adapter-start.test.ts', group: 'processes', why: 'an adapter command that cannot start, dies on start or before every answer: the command spawned where its exit status 3 is the subject, beside adapter child processes' },
  { file: 'suites/client/lingering-descendants.test.ts', group: 'processes', why: 'the command as installed, with adapters and signers that leave background processes holding its pipes' },
  { file: 'suites/secrets/echoing-receiver.test.ts', group: 'processes', why: 'whole runs of the command as installed against a receiver that echoes the token, every file they write searched' },
  { file: 'suites/receiver/cli.test.ts', group: 'processes', why: 'the `receiver` command from the package\'s bin, serving and stopped by its signals (child processes)' },
  { file: 'suites/run/workflow.test.ts', group: 'processes', why: 'the example GitHub workflow\'s commands run in order, as a job\'s steps run them (bash, a receiver, the command)' },
  { file: 'suites/support/runs-a-test-reporter.test.ts', group: 'processes', why: 'a child vitest run per case of the Pact stage\'s reporter' },
  { file: 'suites/support/programs.test.ts', group: 'processes', why: 'a child vitest run on a PATH without Ruby, naming it, and failing under CI=true' },
  { file: 'suites/signer-protocol/external-signer.test.ts', group: 'timed', why: 'signer commands started by `sh -c` (one node process per start): hanging, crashing, garbled and silent signers, each restarted and given up on' },
  { file: 'suites/vectors/python-example.test.ts', group: 'processes', why: 'the Python vectors runner run by python3 against the shipped vectors' },
  { file: 'suites/support/snapshot-policy.test.ts', group: 'processes', why: 'two child vitest runs with a missing snapshot, with and without CI=true' },
  { file: 'suites/run/node-test.test.ts', group: 'processes', why: 'collect-conformance/node-test under `node --test` (a child process: the runner is the point), on the package as installed' },
  { file: 'suites/storm/cli.test.ts', group: 'busy', why: 'whole storms of the command (child processes), and Ctrl-C in the middle of one' },
  { file: 'suites/storm/storm-postgres.test.ts', group: 'timed', why: 'storms observed through a throwaway PostgreSQL server' },
  { file: 'suites/storm/artillery.test.ts', group: 'timed', why: 'the storm exported and run by Artillery itself (Node 22 and Artillery from the npm registry, cached), against each volume fault and the correct receivers' },
  { file: 'suites/storm/storm-faults.test.ts', group: 'timed', why: 'scaled storms (hundreds of callbacks, timed replies) against each volume fault and the correct receivers' },
  { file: 'suites/storm/driver-stall.test.ts', group: 'timed', why: 'two timed storms of about 8 s, one with the driver\'s event loop blocked 0.9 s (busy CPU)' },
  { file: 'suites/status/blocked-loop-kit.test.ts', group: 'timed', why: 'a receiver case beside a confirming receiver with the kit\'s event loop blocked 0.55 s (busy CPU) while its status query waits' },
];

export const E2E_FILES: readonly string[] = E2E_SUITES.map((s) => s.file);
