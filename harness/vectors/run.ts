// Runs the vector files as cases `vectors.<file>.<tcId>`, one CaseResult per vector, handed
// to `onResult` as each finishes (the CLI prints and reports them as they come).
import { verdictAndReason, type CaseResult } from '../results/index.ts';
import { loadVectorFile } from './load.ts';
import { judgeSignerAnswer } from './judge.ts';
import { judgeCallbackQueryVector, judgeCallbackUrlVector } from './callback-judge.ts';
import type { Signer } from './signer.ts';
import { vectorCaseId, type VectorFileName } from './types.ts';

export interface RunVectorsOptions {
  /** Signs the signature vectors. */
  signer: Signer;
  /** Which files to run; default all three (callback files against the built-in composer/parser). */
  files?: readonly VectorFileName[];
  /** Vector folder; default the package's vectors/. */
  dir?: string;
  /** Case-id filter (`idMatcher('vectors.signature.1*')`). */
  include?: (id: string) => boolean;
  onResult?: (result: CaseResult) => void | Promise<void>;
}

export async function runVectors(options: RunVectorsOptions): Promise<CaseResult[]> {
  const files = options.files ?? ['signature', 'callback-url', 'callback-query'];
  const include = options.include ?? (() => true);
  const loadOptions = options.dir === undefined ? {} : { dir: options.dir };
  const results: CaseResult[] = [];
  const emit = async (result: CaseResult) => {
    results.push(result);
    await options.onResult?.(result);
  };

  for (const name of files) {
    if (name === 'signature') {
      const file = loadVectorFile('signature', loadOptions);
      for (const vector of file.tests) {
        const id = vectorCaseId('signature', vector.tcId);
        if (!include(id)) continue;
        const started = performance.now();
        const answer = await options.signer.sign({ id, body: vector.body, secret: vector.secret });
        const j = judgeSignerAnswer(vector, answer, file.specRef);
        await emit(caseResult(id, vector.comment, j, performance.now() - started));
      }
    } else if (name === 'callback-url') {
      const file = loadVectorFile('callback-url', loadOptions);
      for (const vector of file.tests) {
        const id = vectorCaseId('callback-url', vector.tcId);
        if (!include(id)) continue;
        const started = performance.now();
        await emit(caseResult(id, vector.comment, judgeCallbackUrlVector(vector, file.specRef), performance.now() - started));
      }
    } else {
      const file = loadVectorFile('callback-query', loadOptions);
      for (const vector of file.tests) {
        const id = vectorCaseId('callback-query', vector.tcId);
        if (!include(id)) continue;
        const started = performance.now();
        await emit(caseResult(id, vector.comment, judgeCallbackQueryVector(vector, file.specRef), performance.now() - started));
      }
    }
  }
  return results;
}

function caseResult(
  id: string,
  title: string,
  j: Pick<CaseResult, 'verdict' | 'reason' | 'level' | 'specRef' | 'evidence'>,
  durationMs: number,
): CaseResult {
  const result: CaseResult = { id, title, level: j.level, specRef: j.specRef, ...verdictAndReason(j.verdict, j.reason), durationMs: Math.round(durationMs) };
  if (j.evidence !== undefined) result.evidence = j.evidence;
  return result;
}
