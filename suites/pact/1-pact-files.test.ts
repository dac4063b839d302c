// The staleness check of the committed pacts bites on content and ignores tool versions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { comparePactFiles, shippedPactPath } from '../../harness/contracts/index.ts';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pact-files-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function variant(name: string, change: (pact: any) => void): Promise<string> {
  const pact = JSON.parse(await readFile(shippedPactPath('service'), 'utf8'));
  change(pact);
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(pact));
  return path;
}

describe('vectors/pacts staleness check', () => {
  it('other Pact tool versions in metadata and another interaction order still count as current', async () => {
    const path = await variant('versions.json', (pact) => {
      pact.metadata.pactRust = { ffi: '9.9.9', models: '9.9.9' };
      pact.metadata['pact-js'] = { version: '99.0.0' };
      pact.interactions.reverse();
    });
    expect(await comparePactFiles(path, shippedPactPath('service'))).toEqual({ current: true, differences: [] });
  });

  it('a changed matching rule is reported with the interaction it belongs to', async () => {
    const path = await variant('regex.json', (pact) => {
      const accepted = pact.interactions.find((i: any) => i.description.includes('whitelisted customer number'));
      accepted.request.matchingRules.header.Authorization.matchers[0].regex = '^HMAC .*$';
    });
    const comparison = await comparePactFiles(path, shippedPactPath('service'));
    expect(comparison.current).toBe(false);
    expect(comparison.differences).toEqual(['changed interaction: a signed collect request for a whitelisted customer number']);
  });

  it('a pact specification version change is reported', async () => {
    const path = await variant('spec.json', (pact) => {
      pact.metadata.pactSpecification.version = '3.0.0';
    });
    expect((await comparePactFiles(path, shippedPactPath('service'))).current).toBe(false);
  });
});
