// Code points no report file or progress line should hold raw: C0 controls other than
// tab/LF/CR (XML 1.0 forbids them, HTML calls them parse errors, terminals act on ESC), DEL and
// the C1 controls (a terminal may take U+009B as an escape sequence), lone surrogates (not encodable in
// UTF-8: they would silently become U+FFFD on disk) and U+FFFE/U+FFFF. They are written as
// visible `\uXXXX` text so the evidence still shows that they were there.
const UNPRINTABLE = /[^\t\n\r\u0020-\u007E\u00A0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function printable(text: string): string {
  return String(text).replace(UNPRINTABLE, (ch) => `\\u${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);
}
