// A signer under test: one signing request in, one answer out. The built-in signer is the
// canonical one (harness/signing); ExternalSigner drives another program over the line protocol.
import { signBody, SigningError, type CanonicalProfile } from '../signing/index.ts';

export interface SignRequest {
  /** The vector's case id, echoed back by the signer (`vectors.signature.17`). */
  id: string;
  /** The raw JSON body, the bytes sent. */
  body: string;
  secret: string;
}

/** Stable codes for a signer that could not be driven (Bowtie's StartupFailed, ProtocolError …). */
export type SignerFailureCode =
  | 'ERR_SIGNER_START'
  | 'ERR_SIGNER_PROTOCOL'
  | 'ERR_SIGNER_TIMEOUT'
  | 'ERR_SIGNER_CRASHED';

export type SignerAnswer =
  | { kind: 'signed'; message: string; signature: string }
  /** The signer refuses to sign this body (`{"id", "error"}`). */
  | { kind: 'refused'; error: string }
  /** The harness could not get an answer: an ERROR verdict, not the signer's opinion. */
  | { kind: 'failed'; code: SignerFailureCode; reason: string };

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
