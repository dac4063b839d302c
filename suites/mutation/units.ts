// What `npm run mutation` mutates, and which test files judge each part (issue 26). Plain data:
// suites/mutation/run.ts runs StrykerJS once per unit, and vitest.mutation.config.ts includes the
// unit's test files only. A unit is a folder whose branches are verdicts (harness/cases/** is cut
// in four so that a run of one part ends, and is kept, in reasonable time); its score is reported
// per unit and per folder. The test files are those whose tests assert the folder's rules and run
// in seconds: a mutant is run against the tests that reached it (Stryker's per-test coverage).

export interface MutationUnit {
  /** The name on the command line (`npm run mutation -- signing`) and in the report. */
  name: string;
  /** The folder under harness/ the unit's score counts towards. */
  folder: 'signing' | 'callback' | 'diagnoses' | 'preflight' | 'cases';
  /** The files mutated (globs relative to the checkout). */
  mutate: string[];
  /** The test files run for the unit's mutants, quickest first (a mutant's run stops at its first failing test); *.proof.ts files last whatever their place. */
  tests: string[];
}

export const MUTATION_UNITS: readonly MutationUnit[] = [
  {
    name: 'signing', folder: 'signing',
    mutate: ['harness/signing/**/*.ts'],
    tests: [
      'suites/signing/*.test.ts', 'suites/vectors/alternatives.test.ts', 'suites/vectors/stages.test.ts',
      'suites/properties/canonical.test.ts', 'suites/signer-protocol/judge.test.ts', 'suites/vectors/stale.test.ts',
    ],
  },
  {
    name: 'callback', folder: 'callback',
    mutate: ['harness/callback/**/*.ts'],
    tests: [
      'suites/callback/*.test.ts', 'suites/properties/callback.test.ts', 'suites/vectors/stages.test.ts',
      'suites/vectors/callback-judge.test.ts', 'suites/vectors/stale.test.ts',
    ],
  },
  {
    name: 'diagnoses', folder: 'diagnoses',
    mutate: ['harness/diagnoses/**/*.ts'],
    // In-process: a test that runs the command in a child process runs the compiled .installed/
    // copy, which Stryker does not mutate (suites/self-test/controls-and-diagnoses.test.ts does).
    tests: ['suites/diagnoses/*.test.ts', 'suites/cases/runner.test.ts', 'suites/cases/runner-concurrency.test.ts'],
  },
  {
    name: 'preflight', folder: 'preflight',
    mutate: ['harness/preflight/**/*.ts'],
    // In-process, each rule of harness/preflight decided by an assertion (suites/preflight/). Not
    // suites/self-test/controls-and-diagnoses.test.ts: it imports harness/report, which reads
    // reports/schema/ while it loads, and Stryker's sandbox leaves reports/ out, so the file
    // never loaded there (its tests ran none of these mutants).
    tests: ['suites/preflight/*.test.ts'],
  },
  // harness/cases, one unit per side and one for what the sides share. A side's cases are proven
  // by its fault sweep, here cut into one test per case-id group (suites/mutation/*.proof.ts):
  // Stryker runs one test at a time, and a mutant then runs the groups it reached, not every
  // fault through every case (which took about 4 hours for the receiver unit).
  // The receiver and service sides are cut again by file, a few hundred mutants each: Stryker
  // keeps a unit's results only when its run ends, so a part must end within a sitting.
  ...[
    ['kit', ['kit', 'token', 'apply-times']],
    ['rules', ['outcome', 'idempotence', 'params', 'latency', 'index']],
    ['confirm', ['confirm', 'status-endpoint']],
  ].map(([part, files]): MutationUnit => ({
    name: `cases/receiver-${part as string}`, folder: 'cases',
    mutate: (files as string[]).map((f) => `harness/cases/receiver/${f}.ts`),
    tests: [
      'suites/cases/case-list.test.ts', 'suites/receiver/latency-answers.test.ts', 'suites/receiver/rules-answers.test.ts', 'suites/receiver/rules-answers-late.test.ts', 'suites/receiver/confirm-answers.test.ts', 'suites/receiver/confirm-query-answers.test.ts', 'suites/receiver/probe.test.ts', 'suites/receiver/token-cases.test.ts', 'suites/cases/http-evidence.test.ts',
      'suites/receiver/token-header-name.test.ts', 'suites/receiver/rate-limit.test.ts', 'suites/cases/status-endpoint.test.ts',
      'suites/self-test/receiver-own-ids.test.ts', 'suites/cases/https-receiver.test.ts', 'suites/mutation/receiver.proof.ts',
    ],
  })),
  ...[
    ['auth', ['auth']],
    ['request', ['checks', 'define', 'session', 'sandbox', 'index']],
    ['callback', ['callback', 'retry', 'backoff', 'listener-pool', 'transport']],
    ['status', ['status', 'status-absent']],
  ].map(([part, files]): MutationUnit => ({
    name: `cases/service-${part as string}`, folder: 'cases',
    mutate: (files as string[]).map((f) => `harness/cases/service/${f}.ts`),
    // Not suites/service/throttled.test.ts: it runs whole runs in a beforeAll, where Stryker can
    // name no test, so every mutant it reached counted as static (61 %) and ran every test of the unit.
    tests: [
      'suites/cases/case-list.test.ts', 'suites/service/status-answers.test.ts', 'suites/service/status-forms.test.ts', 'suites/service/auth-answers.test.ts', 'suites/service/auth-changed-answers.test.ts', 'suites/service/request-answers.test.ts', 'suites/service/sandbox-answers.test.ts', 'suites/service/callback-answers.test.ts', 'suites/service/callback-token-answers.test.ts', 'suites/service/callback-backoff-answers.test.ts', 'suites/service/callback-stop-answers.test.ts', 'suites/service/session-parts.test.ts', 'suites/service/status.test.ts', 'suites/service/checks.test.ts', 'suites/service/evidence.test.ts',
      'suites/service/backoff.test.ts', 'suites/service/backoff-schedules.test.ts', 'suites/service/retry-window.test.ts', 'suites/service/client.test.ts', 'suites/service/listener.test.ts',
      'suites/service/plain-listener.test.ts', 'suites/service/production-https.test.ts', 'suites/service/rate-limit.test.ts',
      'suites/service/sources.test.ts', 'suites/service/transaction-ids.test.ts',
      'suites/self-test/service-error-code-answers.test.ts', 'suites/mutation/service.proof.ts',
    ],
  })),
  {
    name: 'cases/client', folder: 'cases',
    mutate: ['harness/cases/client/**/*.ts'],
    // The client suites run the command in this process under mutation (suites/client/run-client.ts);
    // not lingering-descendants.test.ts, which must kill the command and so runs the installed copy.
    // Known answers first, then the suites that run the command, then the sweep (vitest.mutation.config.ts runs them in this order).
    tests: [
      'suites/cases/case-list.test.ts', 'suites/client/sent-body.test.ts', 'suites/client/evidence.test.ts', 'suites/client/signature-problem.test.ts',
      'suites/client/reported.test.ts', 'suites/client/collect-judgements.test.ts', 'suites/client/status-judgements.test.ts', 'suites/client/status-runs.test.ts',
      'suites/client/adapter-failures.test.ts', 'suites/client/bench.test.ts', 'suites/client/protocol.test.ts', 'suites/client/form-encoded.test.ts', 'suites/client/unreported-answers.test.ts', 'suites/client/unreported-numbers.test.ts', 'suites/client/no-answer.test.ts',
      'suites/client/adapter-faults.test.ts', 'suites/client/adapter-crashes.test.ts', 'suites/client/adapter-start.test.ts', 'suites/client/status-adapters.test.ts', 'suites/client/example-adapters.test.ts', 'suites/mutation/client.proof.ts',
    ],
  },
  {
    name: 'cases/shared', folder: 'cases',
    mutate: ['harness/cases/*.ts', 'harness/runner/*.ts', 'harness/http/client.ts', 'harness/ids/run-ids.ts'],
    tests: [
      'suites/http/client.test.ts', 'suites/service/session-parts.test.ts', 'suites/cases/run-parts.test.ts', 'suites/cases/capabilities.test.ts', 'suites/cases/shared-parts.test.ts', 'suites/cases/watch.test.ts', 'suites/cases/runner.test.ts', 'suites/cases/runner-concurrency.test.ts', 'suites/cases/case-list.test.ts', 'suites/cases/wire.test.ts', 'suites/cases/wire-whole-run.test.ts', 'suites/cases/pacing.test.ts', 'suites/cases/levels.test.ts',
      'suites/cases/http-evidence.test.ts', 'suites/cases/status-endpoint.test.ts', 'suites/ids/shape.test.ts', 'suites/cases/observation-limit.test.ts',
      'suites/mutation/receiver.proof.ts',
    ],
  },
];

/** `cases/client` → that unit; `cases/service` → its parts (cases/service-…); `cases` → every unit of the folder. Unknown names are refused by the caller. */
export function unitsNamed(names: readonly string[]): MutationUnit[] {
  if (names.length === 0) return [...MUTATION_UNITS];
  return MUTATION_UNITS.filter((u) => names.some((n) => u.name === n || u.folder === n || u.name.startsWith(`${n}-`)));
}
