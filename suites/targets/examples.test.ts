import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadTargetFile } from '../../harness/targets/index.ts';

const dir = fileURLToPath(new URL('../../harness/targets/examples/', import.meta.url));
const env = { COLLECT_CLIENT_KEY: 'example-client-key', COLLECT_SECRET_KEY: 'example-secret-key', COLLECT_CALLBACK_TOKEN: 'example-token' };

describe('the example target files the README points to are valid', () => {
  it.each(readdirSync(dir).filter((f) => f.endsWith('.json')))('%s', (file) => {
    const target = loadTargetFile(`${dir}${file}`, env);
    expect(['service', 'receiver']).toContain(target.side);
    expect(JSON.stringify(target)).toContain('example-');
  });
});
