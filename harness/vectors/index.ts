// Public face of the golden vectors: loading the files, judging a signer's answers, and
// driving a signer in another language over the line protocol (DESIGN.md).
export {
  VECTOR_FILE_NAMES, vectorCaseId,
  type VectorResult, type PositionSource, type VectorFileName, type VectorFiles, type VectorFileHeader, type FlagNote,
  type SignatureVector, type SignatureAlternative, type CallbackUrlVector, type CallbackQueryVector,
} from './types.ts';
export { loadVectorFile, VectorFileError, PACKAGE_VECTORS_DIR, type LoadVectorFileOptions, type VectorFileErrorCode } from './load.ts';
export { judgeSignerAnswer, describeTextDiff, positionAgainst, sourceOf, type SignerJudgement, type DivergentStage } from './judge.ts';
export { judgeCallbackUrlVector, judgeCallbackQueryVector, type CallbackJudgement } from './callback-judge.ts';
export { requestTargetOf } from './request-target.ts';
export { BuiltInSigner, type Signer, type SignRequest, type SignerAnswer, type SignerFailureCode } from './signer.ts';
export { ExternalSigner, type ExternalSignerOptions } from './external-signer.ts';
export { encodeRequestLine, parseAnswerLine, type SignerRequestLine, type SignerAnswerLine, type ParsedAnswerLine } from './protocol.ts';
export { runVectors, type RunVectorsOptions } from './run.ts';
export { summariseSigner, signerSummary, type SignerSummary } from './summary.ts';
