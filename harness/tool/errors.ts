// Failures that decide the exit status (DESIGN.md): 2 bad usage or invalid target file,
// 3 target unreachable. Anything else that escapes a command is a harness bug (exit 1). Thrown by
// the run as a library (harness/run) and by every command (harness/cli); a caller matches `code`.

export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly exitCode = 2;
  readonly code: string;
  constructor(message: string, code = 'ERR_USAGE') {
    super(message);
    this.code = code;
  }
}

export class TargetUnreachableError extends Error {
  override readonly name = 'TargetUnreachableError';
  readonly exitCode = 3;
  readonly code = 'ERR_TARGET_UNREACHABLE';
}
