// §6 rule 4: the receiver may log the raw query parameters with a timestamp. One line per
// request; the token is never written (it is not logged, and the Redactor catches it should
// it turn up inside a query).
import type { Redactor } from '../secrets/index.ts';

export type LogSink = (line: string) => void;

export const stderrSink: LogSink = (line) => {
  process.stderr.write(`${line}\n`);
};

export interface RequestLogEntry {
  area: 'callback' | 'hooks' | 'other';
  method: string;
  path: string;
  /** The raw query string, exactly as received (not decoded). */
  rawQuery: string;
  /** For callbacks: what the token check said ('ok', 'absent', 'wrong', 'repeated'). */
  token?: string;
  status: number;
  result: string;
}

export function formatLogLine(entry: RequestLogEntry, now: Date = new Date()): string {
  const token = entry.token === undefined ? '' : ` token=${entry.token}`;
  const query = entry.rawQuery === '' ? '' : ` query=${JSON.stringify(entry.rawQuery)}`;
  return `${now.toISOString()} receiver ${entry.area} ${entry.method} ${JSON.stringify(entry.path)}${query}${token} -> ${entry.status} ${entry.result}`;
}

export function requestLogger(sink: LogSink, redactor: Redactor): (entry: RequestLogEntry) => void {
  return (entry) => sink(redactor.text(formatLogLine(entry)));
}
