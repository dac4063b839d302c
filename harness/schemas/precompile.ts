// Build step: each schema registered with `precompiled` compiled to standalone code (ajv's
// `standalone`), a CommonJS module that the installed command loads instead of ajv and the
// compile. Its formats and runtime helpers are required from ajv-formats and ajv, run-time
// dependencies of the package.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { ajvFor, schemasToPrecompile, type PrecompiledSchema } from './compile.ts';

const require = createRequire(import.meta.url);

/** The standalone code of one schema's check. */
function precompiledSource({ schema, options }: PrecompiledSchema): string {
  const standaloneCode = (require('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js')).default;
  // ajv-formats names its own module for the formats' code.
  const ajv = ajvFor(options, { source: true });
  return standaloneCode(ajv, ajv.compile(schema));
}

/** Writes every registered schema's standalone check where its owner looks for it; returns the files. */
export function writePrecompiledSchemas(): string[] {
  return schemasToPrecompile().map((entry) => {
    const file = fileURLToPath(entry.options.precompiled);
    writeFileSync(file, precompiledSource(entry));
    return file;
  });
}
