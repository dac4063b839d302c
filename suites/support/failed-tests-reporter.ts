// A vitest reporter beside the default one: the failed tests of the run, one line each (file,
// name, first line of the error), in the file COLLECT_FAILED_TESTS_FILE names. bin/test.js prints
// them last, so a CI log cut to its tail still says what failed.
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export default class FailedTestsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const file = process.env.COLLECT_FAILED_TESTS_FILE;
    if (!file) return;
    const lines: string[] = [];
    for (const module of testModules) {
      const where = relative(process.cwd(), module.moduleId);
      for (const error of module.errors()) lines.push(`${where}: ${firstLine(error.message)}`);
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state !== 'failed') continue;
        lines.push(`${where} > ${test.fullName}: ${firstLine(result.errors?.[0]?.message)}`);
      }
    }
    for (const error of unhandledErrors) lines.push(`unhandled error: ${firstLine((error as { message?: string }).message)}`);
    writeFileSync(file, JSON.stringify(lines));
  }
}

function firstLine(message: string | undefined): string {
  return (message ?? '(no message)').split('\n')[0]!.slice(0, 300);
}
