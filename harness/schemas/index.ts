// Public face of the JSON Schema checks and JSON file reading that the harness's file formats
// share. Each user keeps its own error class and code, and its own special wording.
export {
  compileSchema, formatProblem, formatProblems, schemasToPrecompile,
  type SchemaProblem, type SchemaCheck, type CompileSchemaOptions, type PrecompiledSchema,
} from './compile.ts';
export { writePrecompiledSchemas } from './precompile.ts';
export { MAX_JSON_DEPTH, tooDeep } from './depth.ts';
export { readJsonFile, parseJson, type JsonRead } from './json-file.ts';
