// The schemas a run checks at start-up (the target file, the waivers) are compiled by the build
// (bin/precompile-schemas.js, ajv standalone), and the installed command loads that code instead
// of ajv. It must judge every document exactly as the schema compiled at run time does: same
// problems, same pointers, same wording. The precompiled files compared are the installed copy's
// (.installed/, built by bin/precompile-schemas.js as `npm run build` builds dist/).
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WAIVERS_SCHEMA } from '../../harness/runner/index.ts';
import { compileSchema, schemasToPrecompile, type PrecompiledSchema } from '../../harness/schemas/index.ts';
import { TARGET_SCHEMA } from '../../harness/targets/index.ts';
import { runBin } from '../support/cli-process.ts';
import { INSTALLED } from '../support/installed.ts';
import { assertProperty } from '../properties/fc-run.ts';

const HARNESS = fileURLToPath(new URL('../../harness/', import.meta.url));
const example = (name: string) => JSON.parse(readFileSync(join(HARNESS, 'targets/examples', name), 'utf8')) as Record<string, unknown>;

/** The registered schema's check both ways: compiled now, and as the installed copy's build wrote it. */
function bothChecks(schema: object) {
  const entry = schemasToPrecompile().find((e) => e.schema === schema) as PrecompiledSchema;
  const installed = pathToFileURL(join(INSTALLED, 'dist', relative(HARNESS, fileURLToPath(entry.options.precompiled))));
  const { precompiled: _, ...options } = entry.options;
  return { compiled: compileSchema(schema, options), precompiled: compileSchema(schema, { ...options, precompiled: installed }) };
}

/** `base` with a value set, or a key removed, at a path of existing keys and new ones. */
function mutations(base: unknown): fc.Arbitrary<unknown> {
  const keys = fc.oneof(fc.constantFrom(...keysOf(base)), fc.string({ maxLength: 5 }), fc.nat(3).map(String));
  const value = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(undefined, -1, 1.5, 2 ** 31, '', 'http://x', '::1', '10.0.0.1', { env: 'X' }));
  return fc.tuple(fc.array(keys, { minLength: 1, maxLength: 3 }), value).map(([path, v]) => {
    const copy = structuredClone(base) as Record<string, unknown>;
    let at: Record<string, unknown> = copy;
    for (const key of path.slice(0, -1)) {
      if (typeof at[key] !== 'object' || at[key] === null) at[key] = {};
      at = at[key] as Record<string, unknown>;
    }
    if (v === undefined) delete at[path.at(-1)!];
    else at[path.at(-1)!] = v;
    return copy;
  });
}

function keysOf(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return ['side'];
  return [...new Set(Object.entries(value).flatMap(([k, v]) => [k, ...(typeof v === 'object' && v !== null ? keysOf(v) : [])]))];
}

describe('precompiled start-up schemas judge as the compiled ones (fast-check, seed printed)', () => {
  it('both start-up schemas are registered for the build: the target file and the waivers', () => {
    expect(schemasToPrecompile().map((e) => e.schema)).toEqual(expect.arrayContaining([TARGET_SCHEMA, WAIVERS_SCHEMA]));
  });

  const cases = [
    ['target file (service example)', TARGET_SCHEMA, example('service-sandbox.json')],
    ['target file (receiver example)', TARGET_SCHEMA, example('receiver.json')],
    ['target file (confirming receiver example)', TARGET_SCHEMA, example('receiver-confirming.json')],
    ['target file (client)', TARGET_SCHEMA, { side: 'client', command: 'node adapter.js', timing: { answerDeadlineMs: 5000 } }],
    ['waivers', WAIVERS_SCHEMA, [{ id: 'service.callback.*', reason: 'known', expires: '2030-01-01' }, { id: 'receiver.token.valid', reason: 'x' }]],
  ] as const;
  for (const [name, schema, valid] of cases) {
    it(`${name}: the same problems for every mutation`, () => {
      const { compiled, precompiled } = bothChecks(schema);
      expect(compiled(valid)).toEqual([]);
      expect(precompiled(valid)).toEqual([]);
      let invalid = 0;
      assertProperty(fc.property(mutations(valid), (document) => {
        const problems = compiled(document);
        if (problems.length > 0) invalid += 1;
        expect(precompiled(document)).toEqual(problems);
      }), 300);
      // The comparison was of refusals, not only of documents both accept.
      expect(invalid).toBeGreaterThan(100);
    });
  }
});

describe('the installed command checks its start-up files without loading ajv\'s compiler', () => {
  it('run --target … --waivers …: both precompiled checks are loaded, ajv/dist/compile is not', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'collect-conformance-precompiled-'));
    try {
      // Nothing listens there: the run stops at the probe (exit 3), after both files were checked.
      const target = join(folder, 'receiver.json');
      writeFileSync(target, JSON.stringify({ ...example('receiver.json'), callbackUrl: 'http://127.0.0.1:1/callback' }));
      const waivers = join(folder, 'waivers.json');
      writeFileSync(waivers, JSON.stringify([{ id: 'receiver.token.valid', reason: 'a known failure' }]));
      const ran = await runBin(['run', '--target', target, '--waivers', waivers], {
        env: { NODE_DEBUG: 'module', COLLECT_CALLBACK_TOKEN: 'precompiled-test-token' },
      });
      expect(ran.code).toBe(3);
      expect(ran.stderr).toMatch(/load "[^"]*\/target\.schema\.check\.cjs"/);
      expect(ran.stderr).toMatch(/load "[^"]*\/waivers\.schema\.check\.cjs"/);
      expect(ran.stderr).not.toMatch(/ajv\/dist\/compile\//);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
