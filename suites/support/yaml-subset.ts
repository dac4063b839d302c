// The subset of YAML a GitHub workflow in the docs is written in, read without a YAML
// dependency: block mappings and block sequences by indentation (spaces only), plain and quoted
// scalars, flow sequences of plain scalars (`[push, pull_request]`), `|` literal blocks, and
// `#` comments on lines of their own. Anything else (tabs, flow mappings, anchors, multi-line
// plain scalars, a key twice) throws naming the line: the check is that the file is this
// subset, which YAML reads the same way.
export type YamlValue = string | YamlValue[] | { [key: string]: YamlValue };

interface Line {
  n: number;
  indent: number;
  text: string;
}

export function parseYamlSubset(source: string): YamlValue {
  const lines: Line[] = [];
  source.split('\n').forEach((raw, i) => {
    if (raw.includes('\t')) throw new Error(`line ${i + 1}: a tab (YAML indents with spaces)`);
    const text = raw.trimEnd();
    if (text.trim() === '' || text.trim().startsWith('#')) return;
    lines.push({ n: i + 1, indent: text.length - text.trimStart().length, text: text.trimStart() });
  });
  const raws = source.split('\n');
  let at = 0;

  const fail = (line: Line, why: string): never => {
    throw new Error(`line ${line.n}: ${why}: ${JSON.stringify(line.text)}`);
  };

  const scalar = (text: string, line: Line): YamlValue => {
    if (text.startsWith('[')) {
      if (!text.endsWith(']')) fail(line, 'an unclosed flow sequence');
      return text.slice(1, -1).split(',').map((s) => s.trim()).filter((s) => s !== '').map((s) => scalar(s, line));
    }
    if (text.startsWith('{') || text.startsWith('&') || text.startsWith('*') || text.startsWith('!')) fail(line, 'outside the subset (flow mapping, anchor, alias, tag)');
    if (text.startsWith('"')) {
      if (!text.endsWith('"') || text.length < 2) fail(line, 'an unclosed double-quoted scalar');
      return JSON.parse(text) as string;
    }
    if (text.startsWith("'")) {
      if (!text.endsWith("'") || text.length < 2) fail(line, 'an unclosed single-quoted scalar');
      return text.slice(1, -1).replace(/''/g, "'");
    }
    if (/ #/.test(text)) fail(line, 'a comment after a value');
    return text;
  };

  /** The `|` block after `line`: the lines indented more, their common indent removed. */
  const literal = (line: Line): string => {
    const body: string[] = [];
    let indent: number | undefined;
    for (let i = line.n; i < raws.length; i++) {
      const raw = raws[i]!;
      const own = raw.length - raw.trimStart().length;
      if (raw.trim() !== '' && own <= line.indent) break;
      if (raw.trim() !== '') indent ??= own;
      body.push(raw);
    }
    while (at < lines.length && lines[at]!.n <= line.n + body.length) at++;
    return `${body.map((b) => b.slice(indent ?? 0)).join('\n').replace(/\n+$/, '')}\n`;
  };

  const entry = (text: string, line: Line, indent: number, into: Record<string, YamlValue>): void => {
    const colon = /^([A-Za-z0-9_.-]+):(?: |$)/.exec(text);
    if (!colon) return void fail(line, 'not a `key: value`');
    const key = colon[1]!;
    if (key in into) fail(line, `the key ${key} twice`);
    const rest = text.slice(colon[0].length).trim();
    if (rest === '|') into[key] = literal(line);
    else if (rest !== '') into[key] = scalar(rest, line);
    else if (at < lines.length && lines[at]!.indent > indent) into[key] = block(lines[at]!.indent);
    else if (at < lines.length && lines[at]!.indent === indent && lines[at]!.text.startsWith('- ')) into[key] = block(indent);
    else fail(line, 'a key without a value');
  };

  function block(indent: number): YamlValue {
    const first = lines[at]!;
    if (first.text.startsWith('- ') || first.text === '-') {
      const items: YamlValue[] = [];
      while (at < lines.length && lines[at]!.indent === indent && lines[at]!.text.startsWith('- ')) {
        const line = lines[at++]!;
        const text = line.text.slice(2).trim();
        if (/^[A-Za-z0-9_.-]+:(?: |$)/.test(text)) {
          // A mapping starting on the item's line, continued at the indent of its first key.
          const map: Record<string, YamlValue> = {};
          entry(text, line, indent + 2, map);
          while (at < lines.length && lines[at]!.indent === indent + 2 && !lines[at]!.text.startsWith('- ')) entry(lines[at]!.text, lines[at++]!, indent + 2, map);
          items.push(map);
        } else {
          items.push(scalar(text, line));
        }
      }
      return items;
    }
    const map: Record<string, YamlValue> = {};
    while (at < lines.length && lines[at]!.indent === indent && !lines[at]!.text.startsWith('- ')) entry(lines[at]!.text, lines[at++]!, indent, map);
    return map;
  }

  if (lines.length === 0) throw new Error('empty');
  const doc = block(lines[0]!.indent);
  if (at < lines.length) fail(lines[at]!, 'an indent that belongs to nothing');
  return doc;
}
