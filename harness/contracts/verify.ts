// Provider verification of a shipped pact against a running provider: `verifyProvider`.
import { access } from 'node:fs/promises';
import { PARTICIPANTS, shippedPactPath } from './examples.ts';
import { ContractError } from './errors.ts';
import { receiverRequestFilter, serviceRequestFilter, type RequestFilter, type ServiceRunFlags } from './filters.ts';
import { freshIds, receiverStates, serviceStates, type StateParams, type StateSetup } from './states.ts';
import type { VerifyProviderOptions } from './options.ts';

export interface VerificationOutcome {
  ok: boolean;
  pactFile: string;
  /** The verifier's JSON result (`pactffi_verifier_json`) when it produced one. */
  result?: unknown;
  /** Descriptions of the interactions that failed, with the verifier's reason. */
  failures: string[];
  /** Errors of provider-state setup (they also fail the interaction concerned). */
  stateErrors: string[];
}

/**
 * Verifies the provider at `options.baseUrl` against the pact of its side. Pact's own report
 * goes to stdout (the native core prints it); secrets never reach the verifier: the request
 * filter adds them in this process.
 */
export async function verifyProvider(options: VerifyProviderOptions): Promise<VerificationOutcome> {
  process.env['PACT_DO_NOT_TRACK'] ??= 'true';
  const pactFile = options.pactFile ?? shippedPactPath(options.side);
  try {
    await access(pactFile);
  } catch {
    throw new ContractError('ERR_PACT_FILE', `pact file not found: ${pactFile}`);
  }
  const fresh = freshIds(options.runTag);
  const stateErrors: string[] = [];
  let handlers: Record<string, StateSetup>;
  let filter: RequestFilter;
  if (options.side === 'service') {
    const flags: ServiceRunFlags = { signWithWrongSecret: false };
    handlers = serviceStates(options, flags, fresh);
    filter = serviceRequestFilter(options, flags);
  } else {
    handlers = receiverStates(options, fresh);
    filter = receiverRequestFilter(options);
  }
  const stateHandlers = Object.fromEntries(
    Object.entries(handlers).map(([name, setup]) => [
      name,
      async (params?: unknown) => {
        const p = (params && typeof params === 'object' ? params : {}) as StateParams;
        try {
          await options.onState?.(name, p);
          return await setup(p);
        } catch (error) {
          stateErrors.push(`${name}: ${(error as Error).message}`);
          throw error;
        }
      },
    ]),
  );

  const { Verifier } = await import('@pact-foundation/pact');
  const verifier = new Verifier({
    provider: options.side === 'service' ? PARTICIPANTS.service : PARTICIPANTS.receiver,
    providerBaseUrl: options.baseUrl,
    pactUrls: [pactFile],
    stateHandlers,
    requestFilter: filter as never,
    logLevel: options.logLevel ?? 'warn',
  });
  try {
    const raw = await verifier.verifyProvider();
    const result = parseJson(raw);
    return { ok: true, pactFile, result, failures: [], stateErrors };
  } catch (error) {
    const result = parseJson((error as Error).message);
    return { ok: false, pactFile, result, failures: failuresOf(result, error), stateErrors };
  }
}

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Interaction descriptions with their mismatch, from the verifier's JSON result. */
function failuresOf(result: unknown, error: unknown): string[] {
  const errors = (result as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(errors)) return [(error as Error).message];
  return errors.map((entry: { interaction?: string; mismatch?: { mismatches?: Array<{ mismatch?: string }>; message?: string } }) => {
    const details = entry.mismatch?.mismatches?.map((m) => m.mismatch).filter(Boolean) ?? [];
    const detail = details.length > 0 ? details.join('; ') : (entry.mismatch?.message ?? JSON.stringify(entry.mismatch ?? entry));
    return `${entry.interaction ?? '?'}: ${detail}`;
  });
}
