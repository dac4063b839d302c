// DESIGN.md "Target files", transactionIds: ids of the implementation's shape, `{id}` the
// harness's own id, `{uuid}` a UUID v4 from the seed, other text as written.
import { describe, expect, it } from 'vitest';
import { HARNESS_ID_MAX_LENGTH, idCarrying, matchesShape, shapeProblems, shapedIds, transactionIds } from '../../harness/ids/index.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('transactionIds.template: ids follow it', () => {
  it('{id}-{uuid}: the harness id, a dash, a lower-case UUID v4', () => {
    const ids = shapedIds(transactionIds(7, 'run1'), { template: '{id}-{uuid}', maxLength: 64 });
    const id = ids.newTransactionId();
    const [, harness, uuid] = /^(cc-run1-1-[a-z0-9]{6})-(.+)$/.exec(id) ?? [];
    expect(harness, id).toBeDefined();
    expect(uuid).toMatch(UUID_V4);
  });
  it('text around the placeholders is kept as written; {uuid} alone is allowed', () => {
    const ids = shapedIds(transactionIds(7, 'run1'), { template: 'ORD_{uuid}/x' });
    expect(ids.newTransactionId()).toMatch(/^ORD_[0-9a-f-]{36}\/x$/);
  });
  it('the default template is {id}: the harness id unchanged', () => {
    expect(shapedIds(transactionIds(7, 'run1')).newTransactionId()).toMatch(/^cc-run1-1-[a-z0-9]{6}$/);
  });
  it('the same seed repeats the same ids, uuids included; another seed does not', () => {
    const make = (seed: number) => {
      const ids = shapedIds(transactionIds(seed, 'run1'), { template: '{id}-{uuid}' });
      return [ids.newTransactionId(), ids.newTransactionId(), ids.newTag()];
    };
    expect(make(11)).toEqual(make(11));
    expect(make(11)[0]).not.toEqual(make(12)[0]);
  });
  it('ids of a run never repeat, uuids neither', () => {
    const ids = shapedIds(transactionIds(3), { template: '{uuid}' });
    const seen = new Set(Array.from({ length: 2000 }, () => ids.newTransactionId()));
    expect(seen.size).toBe(2000);
  });
  it('listener tags are URL-safe and ignore the template', () => {
    const ids = shapedIds(transactionIds(7, 'run1'), { template: 'a b/{uuid}?#' });
    expect(ids.newTag()).toMatch(/^[A-Za-z0-9-]+$/);
    expect(ids.newTag().length).toBeLessThanOrEqual(HARNESS_ID_MAX_LENGTH);
  });
});

describe('transactionIdCarrying: reserved characters go into {id}, or the case learns why not', () => {
  const generator = () => transactionIds(5, 'run1');
  it('carried text follows the harness id inside {id}', () => {
    const got = shapedIds(generator(), { template: '{id}-{uuid}', maxLength: 100 }).transactionIdCarrying('&a=b#c');
    expect(got.ok && got.id).toMatch(/^cc-run1-1-[a-z0-9]{6}&a=b#c-[0-9a-f-]{36}$/);
  });
  it('a template without {id} cannot carry it: the reason names the template', () => {
    const got = shapedIds(generator(), { template: 'T-{uuid}' }).transactionIdCarrying('&');
    expect(got).toEqual({ ok: false, reason: expect.stringContaining('transactionIds.template "T-{uuid}" has no {id}') });
  });
  it('a maxLength too short for the carried text: the reason gives the length and the limit', () => {
    const got = idCarrying({ template: '{id}-{uuid}', maxLength: 64 }, 'cc-abcdefgh-1-abcdef', '/a?b=c&d#e+f g%h:é', () => '0'.repeat(36));
    expect(got).toEqual({ ok: false, reason: expect.stringMatching(/is 75 characters long, over transactionIds.maxLength 64/) });
  });
  it('maxLength counts characters, not bytes: é and 😀 are one each', () => {
    expect(idCarrying({ template: '{id}', maxLength: 4 }, 'ab', 'é😀', () => '')).toEqual({ ok: true, id: 'abé😀' });
  });
});

describe('shapeProblems: a template or maxLength the harness cannot use names its field', () => {
  it.each([
    [{ template: '{id}-{order}' }, 'template', 'unknown placeholder {order}'],
    [{ template: '{ID}' }, 'template', 'unknown placeholder {ID}'],
    [{ template: 'fixed' }, 'template', 'neither {id} nor {uuid}'],
    [{ template: '{id}{id}' }, 'template', 'more than once'],
    [{ template: '{id}-{uuid}', maxLength: 40 }, 'maxLength', 'up to 61 characters'],
    [{ template: '{uuid}', maxLength: 35 }, 'maxLength', 'up to 36 characters'],
  ])('%j → %s: %s', (shape, field, message) => {
    const problems = shapeProblems(shape);
    expect(problems[0]).toEqual({ field, message: expect.stringContaining(message) });
  });
  it('{id}-{uuid} with maxLength 64 is fine; so is {uuid} with 36', () => {
    expect(shapeProblems({ template: '{id}-{uuid}', maxLength: 64 })).toEqual([]);
    expect(shapeProblems({ template: '{uuid}', maxLength: 36 })).toEqual([]);
  });
});

describe('matchesShape: what a receiver that accepts only its own ids checks', () => {
  const shape = { template: '{id}-{uuid}', maxLength: 64 };
  it('accepts the harness\'s ids of the shape', () => {
    const ids = shapedIds(transactionIds(9), shape);
    for (let i = 0; i < 50; i += 1) expect(matchesShape(shape, ids.newTransactionId())).toBe(true);
  });
  it.each([
    ['no uuid', 'cc-x-1-abcdef'],
    ['upper-case uuid', 'cc-1-0B3F1E2A-5C4D-4E6F-8A7B-9C8D7E6F5A4B'],
    ['uuid of version 1', 'cc-1-0b3f1e2a-5c4d-1e6f-8a7b-9c8d7e6f5a4b'],
    ['empty {id}', '-0b3f1e2a-5c4d-4e6f-8a7b-9c8d7e6f5a4b'],
    ['too long', `${'x'.repeat(30)}-0b3f1e2a-5c4d-4e6f-8a7b-9c8d7e6f5a4b`],
  ])('refuses %s', (_name, id) => {
    expect(matchesShape(shape, id)).toBe(false);
  });
  it('text of the template is matched literally (a "." is a dot)', () => {
    expect(matchesShape({ template: '{id}.{uuid}' }, 'a.0b3f1e2a-5c4d-4e6f-8a7b-9c8d7e6f5a4b')).toBe(true);
    expect(matchesShape({ template: '{id}.{uuid}' }, 'ax0b3f1e2a-5c4d-4e6f-8a7b-9c8d7e6f5a4b')).toBe(false);
  });
});
