// Code points no report file or progress line should hold raw, written as visible `\uXXXX`
// text so the evidence still shows that they were there:
// - C0 controls other than tab/LF/CR (XML 1.0 forbids them, HTML calls them parse errors,
//   terminals act on ESC), DEL and the C1 controls (a terminal may take U+009B as an escape
//   sequence), lone surrogates (not encodable in UTF-8: they would silently become U+FFFD on
//   disk) and U+FFFE/U+FFFF;
// - bidirectional overrides, embeddings and isolates (and the implicit marks), which reorder
//   what a terminal, a pull-request comment or a browser shows: a hostile target's reason could
//   make `FAIL` read as `PASS` or hide text ("Trojan Source", CVE-2021-42574). Letters of
//   right-to-left scripts are left alone.
const UNPRINTABLE = /[^\t\n\r\u0020-\u007E\u00A0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]|[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/** For text a target chose that a person reads: the terminal, report.md, index.html, junit.xml. */
export function printable(text: string): string {
  return String(text).replace(UNPRINTABLE, (ch) => `\\u${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);
}
