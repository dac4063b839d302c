// One error for everything wrong with a target file: match on `code`, read `pointer`.

export class TargetFileError extends Error {
  override readonly name = 'TargetFileError';
  readonly code = 'ERR_TARGET_INVALID';
  /** JSON pointer of the first bad field ('' for the whole document). */
  readonly pointer: string;
  /** Every problem found, `pointer: message` each. */
  readonly problems: string[];
  constructor(problems: Array<{ pointer: string; message: string }>, source?: string) {
    // A problem with the whole document (unreadable, not JSON) has no field to name.
    const lines = problems.map((p) => (p.pointer ? `${p.pointer}: ${p.message}` : p.message));
    super(`${source ? `${source}: ` : ''}invalid target file: ${lines.join('; ')}`);
    this.pointer = problems[0]?.pointer ?? '';
    this.problems = lines;
  }
}
