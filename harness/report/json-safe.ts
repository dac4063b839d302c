// Evidence has slots whose values the harness does not shape: a SQL row read back (a BIGINT
// column comes as a bigint), a command's request and answer, and a library caller in plain
// JavaScript may pass anything. A bigint or a cycle there must not make the report writers throw
// mid-run, so every case is reduced to plain JSON once, on entry, and all four writers then see
// the same data.

export function jsonSafe<T>(value: T): T {
  return clone(value, []) as T;
}

function clone(value: unknown, ancestors: object[]): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (value === null || typeof value !== 'object') return value;
  if (ancestors.includes(value)) return '[Circular]';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  const inner = [...ancestors, value];
  if (Array.isArray(value)) return value.map((v) => clone(v, inner) ?? null);
  if (value instanceof Map) return clone(Object.fromEntries(value), inner);
  if (value instanceof Set) return clone([...value], inner);
  if (ArrayBuffer.isView(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf8');
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const c = clone(v, inner);
    if (c !== undefined) out[k] = c;
  }
  return out;
}
