// The receiver's own values (`paid`, `COMPLETED`, 2) read as the suite's states. A value is
// compared by its text, whatever type the store returned it as (a number, a boolean).
import { RECORD_STATES, type RecordState, type StateMap } from './model.ts';

/** The text of a stored value: null stays null (SQL NULL maps to no state). */
export function valueText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return String(value);
}

export function mapState(value: string | null, states: StateMap | undefined): RecordState {
  if (value === null) return 'unmapped';
  for (const state of RECORD_STATES) {
    const values = states?.[state] ?? [state];
    if (values.includes(value)) return state;
  }
  return 'unmapped';
}

/** Values listed under two states: the mapping cannot tell them apart (a target-file error). */
export function statesProblems(states: StateMap): string[] {
  const seen = new Map<string, string>();
  const problems: string[] = [];
  for (const state of RECORD_STATES) {
    for (const value of states[state] ?? [state]) {
      const other = seen.get(value);
      if (other !== undefined && other !== state) problems.push(`the value ${JSON.stringify(value)} is listed under both ${other} and ${state}`);
      seen.set(value, state);
    }
  }
  return problems;
}

/** `state SUCCESS ("paid"), actions 1`; the value is named when it differs from the state. */
export function describeRecord(reading: { state: RecordState; value: string | null; actions?: number } | null): string {
  if (!reading) return '404 (no record)';
  const state = reading.state === 'unmapped'
    ? `state ${JSON.stringify(reading.value)} (unmapped: neither pending, SUCCESS nor FAILED)`
    : `state ${reading.state}${reading.value !== reading.state ? ` (${JSON.stringify(reading.value)})` : ''}`;
  return reading.actions === undefined ? state : `${state}, actions ${reading.actions}`;
}
