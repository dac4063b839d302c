// A server (an embedded reference, a small front) started before the tests of one describe and
// closed after them, whatever they did: the describe reads it through the returned getter.
import { afterAll, beforeAll } from 'vitest';

export function startedForDescribe<T extends { close(): Promise<void> }>(start: () => Promise<T>): () => T {
  const held: { value?: T } = {};
  beforeAll(async () => { held.value = await start(); });
  afterAll(async () => held.value?.close());
  return () => {
    if (!held.value) throw new Error('started before the tests of its describe only');
    return held.value;
  };
}
