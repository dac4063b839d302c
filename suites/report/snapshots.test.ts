// The sample report written by every writer, kept as files: a change in any format shows up in
// review as a diff of the output, and the files double as examples of each format.
// Update after an intended change with `npx vitest run suites/report -u`.
import { describe, expect, it } from 'vitest';
import { WRITERS } from '../../harness/report/index.ts';
import { sampleReport } from './sample.ts';

describe('every format, end to end on the sample report', () => {
  for (const writer of WRITERS) {
    it(`${writer.fileName} matches __snapshots__/sample.${writer.fileName}`, async () => {
      await expect(writer.render(sampleReport())).toMatchFileSnapshot(`__snapshots__/sample.${writer.fileName}`);
    });
  }
});
