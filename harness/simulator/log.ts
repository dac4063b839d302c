// One line per request (time, source address, method and path, verdict, reason) and one per
// callback event. Every line passes through the Redactor: no secret reaches a log.
import type { Redactor } from '../secrets/index.ts';

export type LogSink = (line: string) => void;

export interface RequestLogEntry {
  source: string;
  method: string;
  path: string;
  status: number;
  /** 'accepted' or the error_code. */
  verdict: string;
  reason: string;
}

export interface SimulatorLog {
  /** False when nothing is logged, so callers can skip building reasons. */
  readonly enabled: boolean;
  request(entry: RequestLogEntry): void;
  event(text: string): void;
}

export function createLog(sink: LogSink | undefined, redactor: Redactor): SimulatorLog {
  if (!sink) return { enabled: false, request() {}, event() {} };
  const stamp = () => new Date().toISOString();
  return {
    enabled: true,
    request(e) {
      sink(redactor.text(`${stamp()} ${e.source || '-'} ${e.method} ${e.path} ${e.status} ${e.verdict}${e.reason ? ` ${e.reason}` : ''}`));
    },
    event(text) {
      sink(redactor.text(`${stamp()} ${text}`));
    },
  };
}
