// Reproducible randomness for a run: one seed drives every random part, printed in the report
// so that a failing run can be repeated with `--seed`.

/** mulberry32: small, fast, good enough to make ids and token variants; not for secrets. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

export interface TransactionIdGenerator {
  readonly runTag: string;
  next(): string;
}

/**
 * `cc-<runTag>-<counter>-<random>`: the run tag (from the clock) keeps runs from colliding on a
 * shared sandbox, the counter keeps ids of one run apart, the random part comes from the seed.
 */
export function transactionIds(seed: number, runTag = Date.now().toString(36)): TransactionIdGenerator {
  const random = seededRandom(seed);
  let counter = 0;
  return {
    runTag,
    next() {
      counter += 1;
      const part = Math.floor(random() * 36 ** 6).toString(36).padStart(6, '0');
      return `cc-${runTag}-${counter}-${part}`;
    },
  };
}
