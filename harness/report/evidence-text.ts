// Evidence as plain-text sections, shared by the JUnit, Markdown and HTML writers so that each
// shows the same facts: requests (with curl lines), answers, deliveries, record readings,
// retry timelines and latency statistics; every other key of Evidence as its JSON, under its name.
import type { Delivery, Evidence, Exchange } from '../results/index.ts';
import { formatMs } from './group.ts';

export type EvidenceSectionKind = 'exchange' | 'curl' | 'alike' | 'deliveries' | 'records' | 'timeline' | 'latency' | 'notes' | 'other';

export interface EvidenceOptions {
  /** Answers slower than this are counted in a collapsed run of alike requests (a receiver's reply deadline). */
  slowMs?: number;
}

/** Runs of at least this many alike requests are shown as one request and their distribution. */
const COLLAPSE_AT = 3;

export interface EvidenceSection {
  kind: EvidenceSectionKind;
  title: string;
  text: string;
}

/** The keys shown in sections of their own; the rest are shown as JSON under their names. */
const KNOWN: ReadonlySet<string> = new Set<keyof Evidence>(['exchanges', 'deliveries', 'records', 'timeline', 'latency', 'notes']);

// The type fixes each key's shape, but a library caller in plain JavaScript may hand a session
// anything: a malformed field is shown as JSON rather than allowed to throw inside a writer
// (which would lose the report mid-run).
function list<T>(value: T[] | undefined): T[] {
  return Array.isArray(value) ? value : [];
}

/** A value of the type given is there (not undefined, null, an array or a scalar a JavaScript caller put instead). */
function isObject<T>(value: T): value is T & object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function evidenceSections(evidence: Evidence | undefined, options: EvidenceOptions = {}): EvidenceSection[] {
  if (!isObject(evidence)) return evidence === undefined ? [] : [{ kind: 'other', title: 'evidence', text: json(evidence, 2) }];
  const out: EvidenceSection[] = [];
  const exchanges = list(evidence.exchanges);
  for (let i = 0; i < exchanges.length;) {
    const x = exchanges[i];
    if (!isObject(x) || !isObject(x.request)) {
      out.push({ kind: 'other', title: `request ${i + 1}`, text: json(x, 2) });
      i++;
      continue;
    }
    // A burst sends many near-identical requests: one is shown whole, the rest as numbers.
    let end = i + 1;
    while (end < exchanges.length && alikeKey(exchanges[end]) === alikeKey(x)) end++;
    const run = end - i >= COLLAPSE_AT ? exchanges.slice(i, end) : [x];
    const name = x.label ? `request ${i + 1}: ${x.label}` : `request ${i + 1}`;
    out.push({ kind: 'exchange', title: name, text: exchangeText(x) });
    if (x.curl) out.push({ kind: 'curl', title: `${name} (curl)`, text: x.curl });
    if (run.length > 1) out.push({ kind: 'alike', title: `requests ${i + 1}–${end}: alike, request ${i + 1} shown above`, text: alikeText(run, options) });
    i += run.length;
  }
  const deliveries = list(evidence.deliveries);
  if (deliveries.length > 0) {
    out.push({ kind: 'deliveries', title: `deliveries (${deliveries.length})`, text: deliveries.map((d) => (isObject(d) ? deliveryText(d) : json(d))).join('\n') });
  }
  // A receiver's records: how they were read (hooks, its database, a command), each reading with
  // the statements that made it, their parameters and rows.
  if (isObject(evidence.records)) {
    const r = evidence.records;
    const lines: string[] = [];
    if (typeof r.way === 'string') lines.push(`read through ${r.way}`);
    for (const key of ['seeded', 'before', 'after', 'failed'] as const) {
      if (r[key] !== undefined) lines.push(`${key}:${key === 'after' ? ' ' : ''} ${json(r[key])}`);
    }
    out.push({ kind: 'records', title: 'record readings', text: lines.join('\n') });
  }
  if (isObject(evidence.timeline)) {
    const t = evidence.timeline;
    out.push({
      kind: 'timeline',
      title: 'timeline',
      text: `offsets (ms):   ${list(t.offsetsMs).map(formatMs).join(', ')}\nintervals (ms): ${list(t.intervalsMs).map(formatMs).join(', ')}`,
    });
  }
  if (isObject(evidence.latency)) out.push({ kind: 'latency', title: 'latency', text: latencyText(evidence.latency) });
  const notes = list(evidence.notes);
  if (notes.length > 0) {
    out.push({ kind: 'notes', title: 'notes', text: notes.map((n) => `- ${typeof n === 'string' ? n : json(n)}`).join('\n') });
  }
  for (const [key, value] of Object.entries(evidence)) {
    if (KNOWN.has(key) || value === undefined) continue;
    out.push({ kind: 'other', title: key, text: typeof value === 'string' ? value : json(value, 2) });
  }
  return out;
}

export function latencyText(l: NonNullable<Evidence['latency']>): string {
  return `samples ${l.samples}, p50 ${formatMs(l.p50Ms)} ms, p99 ${formatMs(l.p99Ms)} ms, max ${formatMs(l.maxMs)} ms`;
}

/** All sections as one text block (for JUnit bodies). */
export function evidenceText(evidence: Evidence | undefined, options: EvidenceOptions = {}): string {
  return evidenceSections(evidence, options).map((s) => `${s.title}:\n${indent(s.text)}`).join('\n\n');
}

function exchangeText(x: Exchange): string {
  const lines = [`${x.request.method} ${x.request.url}`];
  if (x.request.localAddress) lines.push(`(sent from ${x.request.localAddress})`);
  lines.push(...headerLines(x.request.headers));
  if (x.request.body !== undefined && x.request.body !== '') lines.push('', x.request.body);
  if (isObject(x.response)) {
    lines.push('', `→ ${x.response.status} in ${formatMs(x.response.durationMs)} ms`);
    if (x.response.headers) lines.push(...headerLines(x.response.headers));
    if (x.response.bodyExcerpt !== undefined && x.response.bodyExcerpt !== '') lines.push('', x.response.bodyExcerpt);
  }
  if (x.error) lines.push('', `→ no response: ${x.error}`);
  return lines.join('\n');
}

/**
 * Requests are alike when they differ only in their query (fresh ids) and the numbers of their
 * label (`burst callback 3 of 20`); their answers may differ (the distribution is shown).
 */
function alikeKey(x: Exchange | undefined): string | undefined {
  if (!isObject(x) || !isObject(x.request)) return undefined;
  return [x.request.method, String(x.request.url).replace(/[?#].*$/s, ''), String(x.label ?? '').replace(/\d+/g, '#')].join('\u0000');
}

/** `20 requests like this one; 20 of 20 answered 200; 20 of 20 took longer than 3000 ms` and the durations. */
function alikeText(run: readonly Exchange[], options: EvidenceOptions): string {
  const n = run.length;
  const answered = run.filter((x) => isObject(x.response));
  const statuses = [...groupCount(answered.map((x) => String(x.response?.status)))].map(([s, k]) => `${k} of ${n} answered ${s}`);
  const unanswered = n - answered.length;
  if (unanswered > 0) statuses.push(`${unanswered} of ${n} got no response (${run.find((x) => x.error)?.error ?? 'no answer'})`);
  const lines = [`${n} requests like this one; ${statuses.join('; ')}`];
  const durations = answered.map((x) => Number(x.response?.durationMs)).filter((d) => Number.isFinite(d));
  if (durations.length > 0) {
    if (options.slowMs !== undefined) {
      const slow = durations.filter((d) => d > (options.slowMs ?? 0)).length;
      lines[0] += `; ${slow} of ${n} took longer than ${formatMs(options.slowMs)} ms`;
    }
    const sorted = [...durations].sort((a, b) => a - b);
    const median = sorted.length % 2 === 1 ? sorted[(sorted.length - 1) / 2] ?? 0 : ((sorted[sorted.length / 2 - 1] ?? 0) + (sorted[sorted.length / 2] ?? 0)) / 2;
    lines.push(`answer time (ms): min ${formatMs(sorted[0] ?? 0)}, median ${formatMs(median)}, max ${formatMs(sorted[sorted.length - 1] ?? 0)}`);
    lines.push(`in order sent (ms): ${durations.map(formatMs).join(', ')}`);
  }
  return lines.join('\n');
}

function groupCount(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}

function deliveryText(d: Delivery): string {
  const head = `+${formatMs(d.atMs)} ms  ${d.method} ${d.rawUrl}  → answered ${d.answeredStatus}  (${d.overHttps ? 'https' : 'http'})`;
  const headers = headerLines(d.headers).map((h) => `    ${h}`);
  return [head, ...headers].join('\n');
}

function headerLines(headers: Record<string, string | string[]> | undefined): string[] {
  const lines: string[] = [];
  if (!isObject(headers)) return lines;
  for (const [name, value] of Object.entries(headers)) {
    for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${v}`);
  }
  return lines;
}

function indent(text: string): string {
  return text.split('\n').map((l) => `  ${l}`).join('\n');
}

function json(value: unknown, space?: number): string {
  if (value === undefined) return 'undefined';
  try {
    return JSON.stringify(value, null, space) ?? String(value);
  } catch {
    return String(value);
  }
}
