// `collect-conformance pact verify` end to end: the shipped pacts against the reference
// implementations (exit 0), against a faulty one (exit 1), bad usage (exit 2); secrets given
// through the environment never appear in the output.
import { describe, expect, it, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startReceiver } from '../../harness/receiver/index.ts';
import { startSimulator } from '../../harness/simulator/index.ts';
import { runBin } from '../support/cli-process.ts';

interface CliRun { code: number | null; output: string }

/** Runs the command asynchronously: the providers live in this process and must keep answering. */
async function cli(args: string[], env: Record<string, string>): Promise<CliRun> {
  const { code, stdout, stderr } = await runBin(args, { env });
  return { code, output: stdout + stderr };
}

describe('pact verify --side receiver (callback pact)', () => {
  it('exits 0 for the reference receiver, and the token stays out of the output', async () => {
    const token = `tok-${randomBytes(12).toString('hex')}`;
    const receiver = await startReceiver({ callbackToken: token, workMs: 5, timeScale: 0.01, log: () => {} });
    try {
      const run = await cli(['pact', 'verify', '--side', 'receiver', '--base-url', receiver.url, '--hooks-url', receiver.hooksUrl], { COLLECT_CALLBACK_TOKEN: token });
      expect(run.output).toContain('satisfies');
      expect(run.output).not.toContain(token);
      expect(run.code).toBe(0);
      // Piped, so plain: the native verifier's own report loses its colour codes too.
      expect(run.output).toContain('Verifying a pact between collection-service and callback-receiver');
      expect(run.output).not.toContain('\u001b[');
    } finally {
      await receiver.close();
    }
  });

  it('exits 1 for a receiver with the no-token-check fault, naming the wrong-token interaction', async () => {
    const token = `tok-${randomBytes(12).toString('hex')}`;
    const receiver = await startReceiver({ callbackToken: token, workMs: 5, timeScale: 0.01, log: () => {}, faults: ['no-token-check'] });
    try {
      const run = await cli(['pact', 'verify', '--side', 'receiver', '--base-url', receiver.url, '--hooks-url', receiver.hooksUrl], { COLLECT_CALLBACK_TOKEN: token });
      expect(run.output).toMatch(/FAILED 1 interaction/);
      expect(run.output).toMatch(/wrong token for a pending transaction: .*403/);
      expect(run.output).not.toContain(token);
      expect(run.output).not.toContain('\u001b[');
      expect(run.code).toBe(1);
    } finally {
      await receiver.close();
    }
  });
});

describe('pact verify --side service (collect pact)', () => {
  it('exits 0 for the reference service, and the keys stay out of the output', async () => {
    const client = { clientId: 5, clientKey: `ck-${randomBytes(8).toString('hex')}`, secretKey: `sk-${randomBytes(16).toString('hex')}` };
    // The pact's status interactions describe the upper-case form with 404 (docs/command-line.md).
    const simulator = await startSimulator({ clients: [client], callbackToken: randomBytes(12).toString('hex'), timeScale: 0.01, statusForm: { letterCase: 'upper', unknownId: 404 } });
    try {
      const run = await cli(
        // The callback of the accepted collect goes to a closed loopback port, never off the machine.
        ['pact', 'verify', '--side', 'service', '--base-url', simulator.url, '--client-id', '5', '--callback-url', 'http://127.0.0.1:9/callback'],
        { COLLECT_CLIENT_KEY: client.clientKey, COLLECT_SECRET_KEY: client.secretKey },
      );
      expect(run.output).toContain('satisfies');
      expect(run.output).not.toContain(client.clientKey);
      expect(run.output).not.toContain(client.secretKey);
      expect(run.code).toBe(0);
    } finally {
      await simulator.close();
    }
  });
});

describe('pact verify: bad usage exits 2', () => {
  // In-process (no child start-up): usage is refused before anything is contacted.
  async function inProcess(args: string[], env: Record<string, string | undefined>): Promise<CliRun> {
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
    let output = '';
    const capture = (chunk: string | Uint8Array) => {
      output += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return true;
    };
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    try {
      const { main } = await import('../../harness/cli/index.ts');
      return { code: await main(args), output };
    } finally {
      err.mockRestore();
      out.mockRestore();
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  }

  it('a missing COLLECT_CALLBACK_TOKEN is named', async () => {
    const run = await inProcess(['pact', 'verify', '--side', 'receiver', '--base-url', 'http://127.0.0.1:9'], { COLLECT_CALLBACK_TOKEN: undefined });
    expect(run.output).toContain('COLLECT_CALLBACK_TOKEN');
    expect(run.code).toBe(2);
  });

  it('an unknown --side is refused', async () => {
    const run = await inProcess(['pact', 'verify', '--side', 'client', '--base-url', 'http://127.0.0.1:9'], { COLLECT_CALLBACK_TOKEN: 'xxxxxxxx' });
    expect(run.output).toMatch(/--side/);
    expect(run.code).toBe(2);
  });

  it('--hooks-url with --side service is refused', async () => {
    const run = await inProcess(['pact', 'verify', '--side', 'service', '--base-url', 'http://127.0.0.1:9', '--hooks-url', 'http://127.0.0.1:9'], {});
    expect(run.output).toContain('--hooks-url');
    expect(run.code).toBe(2);
  });

  it('a --base-url that is not http(s) is refused', async () => {
    const run = await inProcess(['pact', 'verify', '--side', 'receiver', '--base-url', 'ftp://127.0.0.1:9'], { COLLECT_CALLBACK_TOKEN: 'xxxxxxxx' });
    expect(run.output).toContain('--base-url');
    expect(run.code).toBe(2);
  });
});
