// A JSON reader that keeps what JSON.parse throws away: the text of every value as it
// stands in the body (so `15.0` stays `15.0`, `1e3` stays `1e3`), the order of keys,
// and duplicate keys. §5.1 signs values "as plain text"; the body's own text is that text.
import { SigningError } from './errors.ts';

export type RawValue =
  | { kind: 'string'; value: string; raw: string }
  | { kind: 'number'; raw: string }
  | { kind: 'boolean'; value: boolean; raw: string }
  | { kind: 'null'; raw: string }
  | { kind: 'object'; raw: string; members: RawMember[] }
  | { kind: 'array'; raw: string; items: RawValue[] };

export interface RawMember {
  key: string;
  value: RawValue;
}

/** Reads a JSON text whose top level is an object; members in body order, duplicates kept. */
export function readRawJsonObject(text: string): RawMember[] {
  const reader = new Reader(text);
  reader.skipWs();
  if (reader.peek() !== '{') {
    if (reader.atEnd()) throw new SigningError('ERR_BODY_NOT_JSON', 'body is empty', 0);
    const value = reader.value();
    reader.skipWs();
    if (!reader.atEnd()) reader.fail('unexpected text after the JSON value');
    throw new SigningError('ERR_BODY_NOT_OBJECT', `body is a JSON ${value.kind}, not an object`, 0);
  }
  const value = reader.value();
  reader.skipWs();
  if (!reader.atEnd()) reader.fail('unexpected text after the JSON object');
  return (value as Extract<RawValue, { kind: 'object' }>).members;
}

/** Objects and arrays nested deeper than this are refused: recursion would overflow the stack. */
export const MAX_NESTING_DEPTH = 512;

class Reader {
  private pos = 0;
  private depth = 0;
  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }
  peek(): string | undefined {
    return this.text[this.pos];
  }
  skipWs(): void {
    let c = this.text.charCodeAt(this.pos);
    // space, tab, line feed, carriage return (RFC 8259 §2)
    while (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) c = this.text.charCodeAt(++this.pos);
  }
  fail(what: string): never {
    const near = JSON.stringify(this.text.slice(this.pos, this.pos + 12));
    throw new SigningError('ERR_BODY_NOT_JSON', `${what} at offset ${this.pos} (near ${near})`, this.pos);
  }
  private expect(ch: string): void {
    if (this.text[this.pos] !== ch) this.fail(`expected '${ch}'`);
    this.pos++;
  }

  value(): RawValue {
    this.skipWs();
    const start = this.pos;
    const c = this.text.charCodeAt(start);
    if (c === 0x22) {
      const value = this.string();
      return { kind: 'string', value, raw: this.text.slice(start, this.pos) };
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number(start);
    if (c === 0x7b) return this.object(start);
    if (c === 0x5b) return this.array(start);
    for (const [word, made] of LITERALS) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return made;
      }
    }
    return this.atEnd() ? this.fail('unexpected end of body') : this.fail('unexpected character');
  }

  private enter(): void {
    if (++this.depth > MAX_NESTING_DEPTH) {
      throw new SigningError('ERR_BODY_TOO_DEEP', `objects and arrays nested deeper than ${MAX_NESTING_DEPTH} levels at offset ${this.pos}`, this.pos);
    }
  }

  private object(start: number): RawValue {
    this.enter();
    this.expect('{');
    const members: RawMember[] = [];
    this.skipWs();
    if (this.peek() === '}') {
      this.pos++;
      this.depth--;
      return { kind: 'object', raw: this.text.slice(start, this.pos), members };
    }
    for (;;) {
      this.skipWs();
      if (this.peek() !== '"') this.fail('expected a string key');
      const key = this.string();
      this.skipWs();
      this.expect(':');
      const value = this.value();
      members.push({ key, value });
      this.skipWs();
      if (this.peek() === ',') {
        this.pos++;
        continue;
      }
      this.expect('}');
      this.depth--;
      return { kind: 'object', raw: this.text.slice(start, this.pos), members };
    }
  }

  private array(start: number): RawValue {
    this.enter();
    this.expect('[');
    const items: RawValue[] = [];
    this.skipWs();
    if (this.peek() === ']') {
      this.pos++;
      this.depth--;
      return { kind: 'array', raw: this.text.slice(start, this.pos), items };
    }
    for (;;) {
      items.push(this.value());
      this.skipWs();
      if (this.peek() === ',') {
        this.pos++;
        continue;
      }
      this.expect(']');
      this.depth--;
      return { kind: 'array', raw: this.text.slice(start, this.pos), items };
    }
  }

  private number(start: number): RawValue {
    NUMBER.lastIndex = start;
    const match = NUMBER.exec(this.text);
    if (!match) this.fail('malformed number');
    this.pos = start + match[0].length;
    return { kind: 'number', raw: match[0] };
  }

  private string(): string {
    this.expect('"');
    let out = '';
    for (;;) {
      // Copy the longest run without a quote, backslash or control character in one slice.
      const text = this.text;
      let end = this.pos;
      for (let c = text.charCodeAt(end); end < text.length && c !== 0x22 && c !== 0x5c && c >= 0x20; c = text.charCodeAt(++end));
      if (end > this.pos) {
        out += text.slice(this.pos, end);
        this.pos = end;
      }
      if (this.atEnd()) this.fail('unterminated string');
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x22) {
        // `\ud800` alone has no UTF-8 form: Node would hash it as U+FFFD, so two different
        // bodies would share one signature. Refuse it instead.
        if (!out.isWellFormed()) {
          throw new SigningError('ERR_BODY_UNPAIRED_SURROGATE', `string ending at offset ${this.pos} holds an unpaired surrogate, which has no UTF-8 form`, this.pos);
        }
        this.pos++;
        return out;
      }
      if (c < 0x20) this.fail('control character in string');
      const esc = this.text[this.pos + 1];
      const simple = esc === undefined ? undefined : ESCAPES[esc];
      if (simple !== undefined) {
        out += simple;
        this.pos += 2;
      } else if (esc === 'u' && /^[0-9a-fA-F]{4}$/.test(this.text.slice(this.pos + 2, this.pos + 6))) {
        out += String.fromCharCode(parseInt(this.text.slice(this.pos + 2, this.pos + 6), 16));
        this.pos += 6;
      } else {
        this.fail('bad escape in string');
      }
    }
  }
}

// RFC 8259 §6: -? int frac? exp?
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

const LITERALS: ReadonlyArray<[string, RawValue]> = [
  ['true', { kind: 'boolean', value: true, raw: 'true' }],
  ['false', { kind: 'boolean', value: false, raw: 'false' }],
  ['null', { kind: 'null', raw: 'null' }],
];

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t',
};
