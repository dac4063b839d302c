// Reproducible randomness for a run: one seed drives every random part, printed in the report
// so that a failing run can be repeated with `--seed`. Ids follow the target's transactionIds
// shape (harness/ids); listener tags are the harness's own ids, URL-safe whatever the shape.
import { DEFAULT_ID_TEMPLATE, idCarrying, renderId, type IdRequest, type TransactionIdShape } from './shape.ts';
import { uuidFrom } from './uuid.ts';

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
  /** The harness's own unique id: `[A-Za-z0-9-]` only, at most HARNESS_ID_MAX_LENGTH characters. */
  next(): string;
  /** A fresh UUID v4 in lower case, from its own stream of the seed. */
  uuid(): string;
}

/**
 * `cc-<runTag>-<counter>-<random>`: the run tag (from the clock) keeps runs from colliding on a
 * shared sandbox, the counter keeps ids of one run apart, the random part comes from the seed.
 */
export function transactionIds(seed: number, runTag = Date.now().toString(36)): TransactionIdGenerator {
  const random = seededRandom(seed);
  // A stream of its own, so the harness's ids stay the same whether or not a shape has {uuid}.
  const uuidRandom = seededRandom(seed ^ 0x5bd1e995);
  let counter = 0;
  return {
    runTag,
    uuid: () => uuidFrom(uuidRandom),
    next() {
      counter += 1;
      const part = Math.floor(random() * 36 ** 6).toString(36).padStart(6, '0');
      return `cc-${runTag}-${counter}-${part}`;
    },
  };
}

/** What a case context offers: ids of the target's shape, ids carrying given text, listener tags. */
export interface ShapedIds {
  newTransactionId(): string;
  transactionIdCarrying(text: string): IdRequest;
  newTag(): string;
}

export function shapedIds(generator: TransactionIdGenerator, shape: TransactionIdShape = { template: DEFAULT_ID_TEMPLATE }): ShapedIds {
  return {
    newTransactionId: () => renderId(shape, generator.next(), () => generator.uuid()),
    transactionIdCarrying: (text) => idCarrying(shape, generator.next(), text, () => generator.uuid()),
    newTag: () => generator.next(),
  };
}
