// The storm's chart of replies and latency over time (harness/storm's `perSecond` evidence of
// storm.reply-deadline): per second of intended send, the attempts sent (bars; the part not
// answered 2xx in red) and their p99 reply time (a line), beside the deadline (dashed). A function
// of its own, called from html.ts's measurements: an SVG, no script, no external resource.
import { htmlEscape } from './html.ts';
import type { StormSecond } from '../results/index.ts';

/** A second whose numbers can be drawn (a p99 of no samples is not). */
function drawable(s: StormSecond): boolean {
  return [s.second, s.sent, s.p99Ms, s.notOk].every((n) => Number.isFinite(n));
}

/** The chart, or '' when `perSecond` holds nothing drawable. */
export function stormChartSvg(perSecond: readonly StormSecond[] | undefined, deadlineMs?: number): string {
  const seconds = (perSecond ?? []).filter(drawable);
  if (seconds.length === 0) return '';
  const deadline = deadlineMs !== undefined && Number.isFinite(deadlineMs) ? deadlineMs : undefined;
  const width = 640;
  const height = 180;
  const left = 44;
  const right = width - 64;
  const top = 12;
  const bottom = height - 30;
  const last = Math.max(...seconds.map((s) => s.second));
  const maxSent = Math.max(1, ...seconds.map((s) => s.sent));
  const maxMs = Math.max(1, deadline ?? 0, ...seconds.map((s) => s.p99Ms)) * 1.1;
  const step = (right - left) / (last + 1);
  const x = (second: number) => left + step * second;
  const ySent = (n: number) => bottom - ((bottom - top) * n) / maxSent;
  const yMs = (ms: number) => bottom - ((bottom - top) * ms) / maxMs;
  const parts = [
    `<svg width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="storm: attempts and p99 reply time per second over ${last + 1} s">`,
    `<line x1="${left}" y1="${bottom}" x2="${right}" y2="${bottom}" stroke="#8c959f"/>`,
    `<text x="${left}" y="${bottom + 18}" class="quiet">0 s</text>`,
    `<text x="${width / 2}" y="${bottom + 18}" text-anchor="middle" class="quiet">second of intended send</text>`,
    `<text x="${right}" y="${bottom + 18}" text-anchor="end" class="quiet">${last + 1} s</text>`,
    `<text x="${left - 4}" y="${top + 8}" text-anchor="end" class="quiet">${maxSent}/s</text>`,
    `<text x="${right + 4}" y="${top + 8}" class="quiet">${Math.round(maxMs)} ms</text>`,
  ];
  const barWidth = Math.max(1, step * 0.8).toFixed(1);
  for (const s of seconds) {
    const ok = s.sent - s.notOk;
    parts.push(`<rect x="${x(s.second).toFixed(1)}" y="${ySent(s.sent).toFixed(1)}" width="${barWidth}" height="${(bottom - ySent(s.sent)).toFixed(1)}" fill="#d0e3f7"><title>second ${s.second}: ${s.sent} attempts, ${s.notOk} not answered 2xx, p99 ${htmlEscape(String(s.p99Ms))} ms</title></rect>`);
    if (s.notOk > 0) parts.push(`<rect x="${x(s.second).toFixed(1)}" y="${ySent(s.sent).toFixed(1)}" width="${barWidth}" height="${(ySent(ok) - ySent(s.sent)).toFixed(1)}" fill="#cf222e" opacity="0.6"/>`);
  }
  const line = seconds.map((s) => `${(x(s.second) + step * 0.4).toFixed(1)},${yMs(s.p99Ms).toFixed(1)}`).join(' ');
  parts.push(`<polyline points="${line}" fill="none" stroke="#0969da" stroke-width="2"/>`);
  if (deadline !== undefined) {
    parts.push(`<line x1="${left}" y1="${yMs(deadline).toFixed(1)}" x2="${right}" y2="${yMs(deadline).toFixed(1)}" stroke="#cf222e" stroke-dasharray="4 3"/>`);
    parts.push(`<text x="${right}" y="${(yMs(deadline) - 4).toFixed(1)}" text-anchor="end" class="quiet">deadline ${deadline} ms</text>`);
  }
  parts.push('</svg>');
  const legend = '<div class="legend"><span>bars: attempts per second (red: not answered 2xx)</span><span>blue line: p99 reply time</span><span>dashed: the deadline</span></div>';
  return `<div class="chart">${parts.join('')}${legend}</div>`;
}
