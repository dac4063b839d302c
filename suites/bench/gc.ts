// The benches' garbage collector: node's own when started with --expose-gc (`npm run bench`),
// else switched on at run time; undefined where neither works (memory figures are then upper bounds).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export function findGc(): (() => void) | undefined {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) return g;
  try {
    // The bench runner starts node without --expose-gc; the flag can be set at run time.
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}
