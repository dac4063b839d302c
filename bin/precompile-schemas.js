#!/usr/bin/env node
// Build step (bin/build.js, and the tests' installed copy): `node bin/precompile-schemas.js DIST`
// loads every command's module from the compiled DIST, so that each schema it checks with
// `precompiled` is registered, then writes their standalone checks beside the compiled code
// (harness/schemas/precompile.ts). A command then starts without loading ajv.
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = resolve(process.argv[2] ?? 'dist');
const commands = join(dist, 'cli/commands');
for (const file of readdirSync(commands).filter((f) => f.endsWith('.js'))) await import(pathToFileURL(join(commands, file)).href);
const { writePrecompiledSchemas } = await import(pathToFileURL(join(dist, 'schemas/index.js')).href);
const written = writePrecompiledSchemas();
if (written.length === 0) {
  process.stderr.write(`precompile-schemas: no schema in ${dist} asks to be precompiled\n`);
  process.exit(1);
}
