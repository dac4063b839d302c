// The shape of the transaction ids an implementation issues or accepts (DESIGN.md "Target
// files", `transactionIds`): a template of `{id}` (the harness's own unique id, the part a case
// may fill with reserved characters), `{uuid}` (a fresh random UUID v4, lower case) and text
// kept as written, and a maximum length counted in characters (Unicode code points).

export interface TransactionIdShape {
  /** Default `{id}`. */
  template: string;
  /** No limit when absent. */
  maxLength?: number;
}

export const DEFAULT_ID_TEMPLATE = '{id}';

/**
 * The longest id the harness makes itself (`cc-<run tag>-<counter>-<random>`, see
 * harness/ids/run-ids.ts): 3 + 8 + 1 + up to 5 + 1 + 6. A shape must leave room for it.
 */
export const HARNESS_ID_MAX_LENGTH = 24;
export const UUID_LENGTH = 36;

export type TemplatePart = { kind: 'text'; text: string } | { kind: 'id' } | { kind: 'uuid' };

const PLACEHOLDER = /\{([^{}]*)\}/g;

/** The template cut into its parts; `{name}` other than `{id}` and `{uuid}` is an error. */
export function parseIdTemplate(template: string): { parts: TemplatePart[]; unknown: string[] } {
  const parts: TemplatePart[] = [];
  const unknown: string[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1]!;
    if (name !== 'id' && name !== 'uuid') {
      unknown.push(match[0]);
      continue;
    }
    if (match.index > last) parts.push({ kind: 'text', text: template.slice(last, match.index) });
    parts.push({ kind: name });
    last = match.index + match[0].length;
  }
  if (last < template.length) parts.push({ kind: 'text', text: template.slice(last) });
  return { parts, unknown };
}

export function idLength(text: string): number {
  return [...text].length;
}

/** Length of an id of this template whose `{id}` part is `idPartLength` characters long. */
function lengthWith(parts: readonly TemplatePart[], idPartLength: number): number {
  return parts.reduce((sum, p) => sum + (p.kind === 'text' ? idLength(p.text) : p.kind === 'uuid' ? UUID_LENGTH : idPartLength), 0);
}

export interface ShapeProblem {
  /** `template` or `maxLength`: the field, relative to the `transactionIds` object. */
  field: 'template' | 'maxLength';
  message: string;
}

/** What is wrong with a shape, each problem naming its field; empty when it is usable. */
export function shapeProblems(shape: TransactionIdShape): ShapeProblem[] {
  const { parts, unknown } = parseIdTemplate(shape.template);
  const problems: ShapeProblem[] = [];
  if (unknown.length > 0) {
    problems.push({ field: 'template', message: `unknown placeholder ${unknown.join(', ')} in ${JSON.stringify(shape.template)}; the placeholders are {id} and {uuid}` });
  }
  const count = (kind: 'id' | 'uuid') => parts.filter((p) => p.kind === kind).length;
  if (count('id') > 1 || count('uuid') > 1) {
    problems.push({ field: 'template', message: `${JSON.stringify(shape.template)} holds {id} or {uuid} more than once; each may appear once` });
  }
  if (count('id') === 0 && count('uuid') === 0) {
    problems.push({ field: 'template', message: `${JSON.stringify(shape.template)} holds neither {id} nor {uuid}, so every id would be the same; every case needs a fresh id` });
  }
  if (shape.maxLength !== undefined && problems.length === 0) {
    const shortest = lengthWith(parts, count('id') ? HARNESS_ID_MAX_LENGTH : 0);
    if (shortest > shape.maxLength) {
      problems.push({
        field: 'maxLength',
        message: `${shape.maxLength} is too short for template ${JSON.stringify(shape.template)}: its ids are up to ${shortest} characters long`
          + ` (${count('id') ? `the harness's own id up to ${HARNESS_ID_MAX_LENGTH}, ` : ''}${count('uuid') ? `{uuid} ${UUID_LENGTH}, ` : ''}the rest as written)`,
      });
    }
  }
  return problems;
}

/** Fills the template. `uuid` is only called when the template holds `{uuid}`. */
export function renderId(shape: TransactionIdShape, idPart: string, uuid: () => string): string {
  return parseIdTemplate(shape.template).parts
    .map((p) => (p.kind === 'text' ? p.text : p.kind === 'id' ? idPart : uuid()))
    .join('');
}

export type IdRequest = { ok: true; id: string } | { ok: false; reason: string };

/**
 * An id whose `{id}` part is the harness's id followed by `carrying`, or why the shape cannot
 * hold it (no `{id}` in the template, or too long for maxLength).
 */
export function idCarrying(shape: TransactionIdShape, harnessId: string, carrying: string, uuid: () => string): IdRequest {
  const { parts } = parseIdTemplate(shape.template);
  if (!parts.some((p) => p.kind === 'id')) {
    return { ok: false, reason: `the target's transactionIds.template ${JSON.stringify(shape.template)} has no {id}, so a transaction_id cannot carry ${JSON.stringify(carrying)}` };
  }
  const idPart = harnessId + carrying;
  const length = lengthWith(parts, idLength(idPart));
  if (shape.maxLength !== undefined && length > shape.maxLength) {
    return {
      ok: false,
      reason: `an id of the target's transactionIds.template ${JSON.stringify(shape.template)} carrying ${JSON.stringify(carrying)} is ${length} characters long, over transactionIds.maxLength ${shape.maxLength}`,
    };
  }
  return { ok: true, id: renderId(shape, idPart, uuid) };
}

const UUID_V4 = '[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';

/** True when `id` has the shape: `{id}` any non-empty text, `{uuid}` a lower-case UUID v4, the rest as written. */
export function matchesShape(shape: TransactionIdShape, id: string): boolean {
  if (shape.maxLength !== undefined && idLength(id) > shape.maxLength) return false;
  const source = parseIdTemplate(shape.template).parts
    .map((p) => (p.kind === 'text' ? escapeRegExp(p.text) : p.kind === 'uuid' ? UUID_V4 : '[^]+'))
    .join('');
  return new RegExp(`^${source}$`, 'u').test(id);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
