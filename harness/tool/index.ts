// The tool itself, for every command and the run as a library: its version, and the failures
// that decide its exit status. Light on purpose: `collect-conformance --help` loads it.
export { UsageError, TargetUnreachableError } from './errors.ts';
export { toolVersion } from './version.ts';
export { listenOn, originOf } from './listen.ts';
