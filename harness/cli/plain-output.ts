// Pact's native verifier colours its report whatever its stdout is: its `coloured_output`
// switch (pactffi_verifier_set_coloured_output) is not reachable through pact-core's Node
// binding, and it ignores NO_COLOR. Where colour is not wanted (a pipe, a CI log, NO_COLOR), the
// command runs again as a child whose stdout is a pipe to this process, which removes the
// escape sequences line by line before passing the text on.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Set in the child's environment: it prints as it likes, the parent cleans it. */
export const PLAIN_CHILD_ENV = 'COLLECT_CONFORMANCE_PLAIN_CHILD';

const BIN = fileURLToPath(new URL('../../bin/collect-conformance.js', import.meta.url));

// CSI sequences (colours, cursor moves) and OSC sequences (titles, links), ECMA-48.
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

export function stripAnsi(text: string): string {
  return text.replace(ESCAPES, '');
}

/** Runs `collect-conformance ...args` as a child, its stdout without escape sequences; returns its exit status. */
export function runWithPlainStdout(args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, [PLAIN_CHILD_ENV]: '1' },
      stdio: ['inherit', 'pipe', 'pipe'],
    });
    // Through this process's streams (not inherited), so whoever reads them here sees it all.
    child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    let pending = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      // Whole lines only: an escape sequence may be split across two chunks.
      pending += chunk;
      const end = pending.lastIndexOf('\n') + 1;
      if (end > 0) {
        process.stdout.write(stripAnsi(pending.slice(0, end)));
        pending = pending.slice(end);
      }
    });
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (pending !== '') process.stdout.write(stripAnsi(pending));
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}
