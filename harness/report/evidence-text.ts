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

export function evidenceSections(evidence: Evidence | undefined): EvidenceSection[] {
  if (!evidence) return [];
  const out: EvidenceSection[] = [];
  (evidence.exchanges ?? []).forEach((x, i) => {
    const name = x.label ? `request ${i + 1}: ${x.label}` : `request ${i + 1}`;
    out.push({ kind: 'exchange', title: name, text: exchangeText(x) });
    if (x.curl) out.push({ kind: 'curl', title: `${name} (curl)`, text: x.curl });
  });
  if (evidence.deliveries && evidence.deliveries.length > 0) {
    out.push({ kind: 'deliveries', title: `deliveries (${evidence.deliveries.length})`, text: evidence.deliveries.map(deliveryText).join('\n') });
  }
  if (evidence.hooks) {
    const lines: string[] = [];
    if ('before' in evidence.hooks) lines.push(`before: ${json(evidence.hooks.before)}`);
    if ('after' in evidence.hooks) lines.push(`after:  ${json(evidence.hooks.after)}`);
    out.push({ kind: 'hooks', title: 'hook readings', text: lines.join('\n') });
  }
  if (evidence.timeline) {
    const t = evidence.timeline;
    out.push({
      kind: 'timeline',
      title: 'timeline',
      text: `offsets (ms):   ${t.offsetsMs.map(formatMs).join(', ')}\nintervals (ms): ${t.intervalsMs.map(formatMs).join(', ')}`,
    });
  }
  if (evidence.latency) out.push({ kind: 'latency', title: 'latency', text: latencyText(evidence.latency) });
  if (evidence.notes && evidence.notes.length > 0) {
    out.push({ kind: 'notes', title: 'notes', text: evidence.notes.map((n) => `- ${n}`).join('\n') });
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
  if (x.response) {
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

function headerLines(headers: Record<string, string | string[]>): string[] {
  const lines: string[] = [];
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
