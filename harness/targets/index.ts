// Public face of target files (DESIGN.md "Target files"): schema, loading, secret references,
// redaction, and the reachability probe behind exit status 3.
export type { ReceiverConfirms, ResolvedReceiverTarget, ResolvedServiceTarget, ResolvedClientTarget, ResolvedTarget, InProcessAdapter } from './types.ts';
export { generateClientCredentials } from './credentials.ts';
export { TARGET_DEFAULTS, SECRET_KEYS } from './types.ts';
export { TargetFileError } from './errors.ts';
export { loadTargetFile, parseTarget, TARGET_SCHEMA, TARGET_SCHEMA_URL, type ParseTargetOptions } from './load.ts';
export { secretsOf, redactTarget, secretEnvName } from './redact.ts';
export { probeTarget, entryUrlOf } from './probe.ts';
export { isDefaulted, type DefaultableKey } from './defaults.ts';
