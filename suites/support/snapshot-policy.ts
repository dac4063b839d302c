// When a snapshot is missing: on a developer's machine vitest writes it (and the diff shows up in
// review); under CI it must not record its own expectation, so the run fails naming it. vitest 4
// does this by itself when std-env detects CI; the suites' configs say it explicitly, and
// snapshot-policy.test.ts proves both behaviours in a child vitest.

/** vitest's `update` option: `'none'` under CI (CI set and not "false" or "0"), `'new'` elsewhere. */
export function snapshotUpdate(env: NodeJS.ProcessEnv): 'new' | 'none' {
  const ci = env['CI'];
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0' ? 'none' : 'new';
}
