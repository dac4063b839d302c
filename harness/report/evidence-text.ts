// Evidence as plain-text sections, shared by the JUnit, Markdown and HTML writers so that each
// shows the same facts: requests (with curl lines), answers, deliveries, hook readings,
// retry timelines and latency statistics.
import type { Delivery, Evidence, Exchange } from '../results/index.ts';
import { formatMs } from './group.ts';

export type EvidenceSectionKind = 'exchange' | 'curl' | 'deliveries' | 'hooks' | 'timeline' | 'latency' | 'notes' | 'other';

export interface EvidenceSection {
  kind: EvidenceSectionKind;
  title: string;
  text: string;
}

const KNOWN = new Set(['exchanges', 'deliveries', 'hooks', 'timeline', 'latency', 'notes']);

// Evidence comes from cases written by several people; a malformed field is shown as JSON
// rather than allowed to throw inside a writer (which would lose the report mid-run).
function list<T>(value: T[] | undefined): T[] {
  return Array.isArray(value) ? value : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function evidenceSections(evidence: Evidence | undefined): EvidenceSection[] {
  if (!isObject(evidence)) return evidence === undefined ? [] : [{ kind: 'other', title: 'evidence', text: json(evidence, 2) }];
  const out: EvidenceSection[] = [];
  list(evidence.exchanges).forEach((x, i) => {
    if (!isObject(x) || !isObject(x.request)) {
      out.push({ kind: 'other', title: `request ${i + 1}`, text: json(x, 2) });
      return;
    }
    const name = x.label ? `request ${i + 1}: ${x.label}` : `request ${i + 1}`;
    out.push({ kind: 'exchange', title: name, text: exchangeText(x) });
    if (x.curl) out.push({ kind: 'curl', title: `${name} (curl)`, text: x.curl });
  });
  const deliveries = list(evidence.deliveries);
  if (deliveries.length > 0) {
    out.push({ kind: 'deliveries', title: `deliveries (${deliveries.length})`, text: deliveries.map((d) => (isObject(d) ? deliveryText(d) : json(d))).join('\n') });
  }
  if (isObject(evidence.hooks)) {
    const lines: string[] = [];
    if ('before' in evidence.hooks) lines.push(`before: ${json(evidence.hooks.before)}`);
    if ('after' in evidence.hooks) lines.push(`after:  ${json(evidence.hooks.after)}`);
    out.push({ kind: 'hooks', title: 'hook readings', text: lines.join('\n') });
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
export function evidenceText(evidence: Evidence | undefined): string {
  return evidenceSections(evidence).map((s) => `${s.title}:\n${indent(s.text)}`).join('\n\n');
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
