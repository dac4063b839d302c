// A signer under test: one signing request in, one answer out. The built-in signer is the
// canonical one (harness/signing); ExternalSigner drives another program over the line protocol.
import { signBody, SigningError, type CanonicalProfile } from '../signing/index.ts';
import type { SignerAnswer, SignerFailureCode } from '../results/index.ts';

// A signer's answer is a vector case's evidence as it is: its shape is named there (harness/results).
export type { SignerAnswer, SignerFailureCode };

export interface SignRequest {
  /** The vector's case id, echoed back by the signer (`vectors.signature.17`). */
  id: string;
  /** The raw JSON body, the bytes sent. */
  body: string;
  secret: string;
}

export interface Signer {
  /** What is being tested, for the report's target (`built-in` or the command). */
  readonly description: string;
  sign(request: SignRequest): Promise<SignerAnswer>;
  close(): Promise<void>;
}

/** The suite's own signer, in process; with another profile, a faithful model of a wrong signer. */
export class BuiltInSigner implements Signer {
  readonly description: string;
  constructor(private readonly profile?: CanonicalProfile, label?: string) {
    this.description = profile === undefined ? 'built-in' : `built-in model of ${label ?? 'another profile'}`;
  }
  async sign(request: SignRequest): Promise<SignerAnswer> {
    try {
      const { message, signature } = signBody(request.body, request.secret, this.profile === undefined ? {} : { profile: this.profile });
      return { kind: 'signed', message, signature };
    } catch (error) {
      if (error instanceof SigningError) return { kind: 'refused', error: `${error.code}: ${error.message}` };
      throw error;
    }
  }
  async close(): Promise<void> {}
}
