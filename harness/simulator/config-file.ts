// `simulate --config FILE`: a JSON file validated by config.schema.json (JSON Schema
// 2020-12). Errors name the JSON path of the bad field. Secrets never live in the file.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import type { SimulatorConfig } from './config.ts';
import { SIMULATOR_FAULTS, type SimulatorFault } from './faults.ts';

const addFormats = ajvFormats.default;

export class SimulatorConfigError extends Error {
  override readonly name = 'SimulatorConfigError';
  readonly code = 'ERR_SIMULATOR_CONFIG';
}

/** The config file's shape (config.schema.json). */
export interface SimulatorConfigFile {
  mode?: SimulatorConfig['mode'];
  clientId?: number;
  whitelist?: { sources?: string[]; customerNumbers?: string[] };
  outcome?: { failingSuffixes?: string[] };
  processingDelayMs?: number;
  retry?: Partial<SimulatorConfig['retry']>;
  duplicateDeliveries?: number;
  timeScale?: number;
  callbackTimeoutMs?: number;
  callbackCaFiles?: string[];
  tls?: { keyFile: string; certFile: string };
  maxBodyBytes?: number;
  faults?: SimulatorFault[];
}

const SCHEMA_PATH = new URL('./config.schema.json', import.meta.url);
let validator: ((value: unknown) => string[]) | undefined;

/** [] when valid; else one line per error, `/retry/factor: must be >= 1`. */
export function validateSimulatorConfigFile(value: unknown): string[] {
  if (!validator) {
    const schema = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as { properties: { faults: { items: Record<string, unknown> } } };
    // The fault names are data in faults.ts; the schema gets them from there.
    schema.properties.faults.items['enum'] = SIMULATOR_FAULTS.map((f) => f.name);
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    validator = (v) => {
      if (validate(v)) return [];
      return (validate.errors ?? []).map((e) => {
        const path = e.instancePath === '' ? '/' : e.instancePath;
        const extra = e.keyword === 'additionalProperties'
          ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})`
          : e.keyword === 'enum' ? ` (${JSON.stringify(v === undefined ? null : pick(v, e.instancePath))})` : '';
        return `${path}: ${e.message ?? 'invalid'}${extra}`;
      });
    };
  }
  return validator(value);
}

function pick(root: unknown, pointer: string): unknown {
  let node: unknown = root;
  for (const part of pointer.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

/** Reads, validates and converts a config file; relative file paths are relative to it. */
/** DESIGN.md "simulate": COLLECT_SANDBOX_NUMBERS, comma-separated; default 0244000001,0244000002. */
export function sandboxNumbersFromEnv(env: NodeJS.ProcessEnv): string[] {
  return (env['COLLECT_SANDBOX_NUMBERS'] || '0244000001,0244000002').split(',').map((n) => n.trim()).filter(Boolean);
}

export function loadSimulatorConfigFile(path: string, env: NodeJS.ProcessEnv = process.env): { config: Partial<SimulatorConfig>; clientId?: number } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SimulatorConfigError(`${path}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SimulatorConfigError(`${path}: not JSON (${(error as Error).message})`);
  }
  const errors = validateSimulatorConfigFile(value);
  if (errors.length > 0) throw new SimulatorConfigError(`${path}: ${errors.join('; ')}`);
  const file = value as SimulatorConfigFile;
  const base = dirname(resolve(path));
  const readPem = (field: string, p: string): string => {
    try {
      return readFileSync(resolve(base, p), 'utf8');
    } catch (error) {
      throw new SimulatorConfigError(`${path}: ${field}: cannot read ${p} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  };
  const config: Partial<SimulatorConfig> = {};
  if (file.mode) config.mode = file.mode;
  if (file.whitelist) {
    config.whitelist = {
      sources: file.whitelist.sources ?? ['127.0.0.1', '::1'],
      customerNumbers: file.whitelist.customerNumbers ?? sandboxNumbersFromEnv(env),
    };
  }
  if (file.outcome?.failingSuffixes) config.outcome = { failingSuffixes: file.outcome.failingSuffixes };
  if (file.processingDelayMs !== undefined) config.processingDelayMs = file.processingDelayMs;
  if (file.retry) config.retry = { attempts: 5, initialDelayMs: 1000, factor: 2, ...file.retry };
  if (file.duplicateDeliveries !== undefined) config.duplicateDeliveries = file.duplicateDeliveries;
  if (file.timeScale !== undefined) config.timeScale = file.timeScale;
  if (file.callbackTimeoutMs !== undefined) config.callbackTimeoutMs = file.callbackTimeoutMs;
  if (file.callbackCaFiles) config.callbackCa = file.callbackCaFiles.map((p, i) => readPem(`/callbackCaFiles/${i}`, p));
  if (file.tls) config.tls = { key: readPem('/tls/keyFile', file.tls.keyFile), cert: readPem('/tls/certFile', file.tls.certFile) };
  if (file.maxBodyBytes !== undefined) config.maxBodyBytes = file.maxBodyBytes;
  if (file.faults) config.faults = file.faults;
  return file.clientId === undefined ? { config } : { config, clientId: file.clientId };
}
