// docs/positions.md, generated from the positions (data.ts): `npm run docs:positions` writes it,
// suites/positions/page.test.ts checks that the committed page is this text.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { POSITIONS, TOPICS, type Position, type PositionEvidence } from './data.ts';
import { LEVELS } from './levels.ts';

export const POSITIONS_DOC_PATH = fileURLToPath(new URL('../../docs/positions.md', import.meta.url));

const HEAD = `# Where the spec is silent: the positions the suite takes

<!-- Generated from harness/positions/data.ts by \`npm run docs:positions\`: edit that file, not this page. -->

**What you do first:** when a case fails and you believe your implementation is right, find
the case id or the rule on this page. Where the spec states a rule, the case is \`MUST\`; where it
is silent, the suite takes a documented position instead of guessing silently, says what evidence
it rests on (which real code, and what it does), names the common alternatives so that an
implementation following one is told which, and (where a correct implementation could differ)
makes the case \`SHOULD\`, so a miss is a WARN, not a FAIL. Where the evidence disagrees, the kit
reads every form the evidence shows and notes which one the target used.
[\`vectors/README.md\`](../vectors/README.md) has the full list for signing and the callback URL.
`;

const KIND: Readonly<Record<PositionEvidence['kind'], string>> = {
  code: 'real code', spec: 'the spec', standard: 'a standard', reasoning: 'reasoning (no code seen)',
};

function positionText(p: Position): string {
  return [
    `### ${p.title}`,
    '',
    `\`${p.id}\`. ${p.silent}`,
    '',
    p.position,
    ...(p.reads ? ['', `**Where the evidence disagrees:** ${p.reads}`] : []),
    '',
    'Evidence:',
    '',
    ...p.evidence.map((e) => `- ${KIND[e.kind]}: ${e.source}: ${e.what}.`),
    '',
    `Cases: ${p.cases.map((c) => `\`${c}\``).join(', ')}.`,
  ].join('\n');
}

/** The whole page. */
export function positionsPage(levels: string = LEVELS): string {
  const sections = TOPICS.map((topic) => {
    const here = POSITIONS.filter((p) => p.topic === topic);
    return [`## ${topic}`, '', here.map(positionText).join('\n\n')].join('\n');
  });
  return `${[HEAD, ...sections, levels.trim()].join('\n')}\n`;
}


if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(POSITIONS_DOC_PATH, positionsPage());
}
