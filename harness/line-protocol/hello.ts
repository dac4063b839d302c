// The handshake of every line protocol, after Bowtie's `start`: the harness's first line to a
// fresh instance is `{"id": "hello", "op": "hello", "protocol": 2}`. A version-2 peer answers
// `{"id": "hello", "protocol": 2, "supports": [...], "implementation"?: {...}}`: what it supports
// (an SDK adapter `collect`, `status`; a signer `sign`) and, for the report, what it wraps. Any
// other answer (an `error`, a collect-shaped answer, garbage), none within a short limit, or an
// exit, makes it a version-1 peer: it supports what protocol 1 had, and is never sent more.
import { excerpt, parseObjectLine, toLine } from './line.ts';

export const HELLO_ID = 'hello';
/** The protocol version this harness speaks. */
export const PROTOCOL_VERSION = 2;
export const HELLO_LINE = toLine(JSON.stringify({ id: HELLO_ID, op: 'hello', protocol: PROTOCOL_VERSION }));

/**
 * How long a fresh instance has to answer the hello before it is taken for version 1. Short, so a
 * version-1 peer that ignores the line costs this once per run; an answer that comes later, before
 * the answer to the first request, still counts (a slow start on a loaded machine is not a version).
 */
export const HELLO_LIMIT_MS = 1500;

/** What a peer said it wraps (free text, shown in the report). */
export interface Implementation {
  language?: string;
  library?: string;
  version?: string;
}

export type Greeting =
  | { protocol: 2; supports: readonly string[]; implementation?: Implementation }
  /** `why`: how it met the hello (its answer quoted, no answer, its exit). */
  | { protocol: 1; why: string };

const IMPLEMENTATION_KEYS = ['language', 'library', 'version'] as const;

/** A line read as the answer to the hello: a version-2 greeting, or the reason it is version 1. */
export function readHelloAnswer(line: string): Greeting {
  const parsed = parseObjectLine(line);
  const v1 = (what: string): Greeting => ({ protocol: 1, why: `it answered the hello with ${excerpt(line)} (${what})` });
  if (!parsed.ok) return v1(parsed.problem.replace(/:.*$/, ''));
  const o = parsed.object;
  if (parsed.id !== HELLO_ID) return v1('an answer for another id');
  if ('error' in o) return v1('an error');
  if (typeof o.protocol !== 'number' || !Number.isInteger(o.protocol) || o.protocol < 2) return v1('no "protocol" of 2 or more');
  if (!Array.isArray(o.supports) || !o.supports.every((s) => typeof s === 'string')) return v1('no "supports" list of strings');
  const implementation: Implementation = {};
  const given = o.implementation;
  if (given !== null && typeof given === 'object' && !Array.isArray(given)) {
    for (const key of IMPLEMENTATION_KEYS) {
      const value = (given as Record<string, unknown>)[key];
      if (typeof value === 'string' && value.trim() !== '') implementation[key] = value.slice(0, 200);
    }
  }
  return { protocol: 2, supports: o.supports as string[], ...(Object.keys(implementation).length > 0 ? { implementation } : {}) };
}

/** Whether a line is the (late) answer to the hello, to be read as such instead of an exchange's. */
export function isHelloAnswer(line: string): boolean {
  const parsed = parseObjectLine(line);
  return parsed.ok && parsed.id === HELLO_ID;
}

/** A greeting in words for a report: `protocol 2 (collect, status; PHP guzzle-sdk 1.4)`. */
export function describeGreeting(greeting: Greeting): string {
  if (greeting.protocol === 1) return `protocol 1 (${greeting.why})`;
  const impl = greeting.implementation;
  const wraps = impl ? `; ${IMPLEMENTATION_KEYS.flatMap((k) => (impl[k] ? [impl[k]] : [])).join(' ')}` : '';
  return `protocol 2 (supports ${greeting.supports.length > 0 ? greeting.supports.join(', ') : 'nothing'}${wraps})`;
}
