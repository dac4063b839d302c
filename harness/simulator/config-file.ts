// `simulate --config FILE`: a JSON file validated by config.schema.json (JSON Schema
// 2020-12). Errors name the JSON path of the bad field. Secrets never live in the file.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { compileSchema, formatProblem, readJsonFile } from '../schemas/index.ts';
import { REFERENCE_STATUS_FORM } from '../status/index.ts';
import type { SimulatorConfig } from './config.ts';
import { SIMULATOR_FAULTS, type SimulatorFault } from './faults.ts';

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
  rejectionStyle?: SimulatorConfig['rejectionStyle'];
  statusForm?: Partial<SimulatorConfig['statusForm']>;
  faults?: SimulatorFault[];
}

const SCHEMA = JSON.parse(readFileSync(new URL('./config.schema.json', import.meta.url), 'utf8')) as { properties: { faults: { items: Record<string, unknown> } } };
// The fault names are data in faults.ts; the schema gets them from there.
SCHEMA.properties.faults.items['enum'] = SIMULATOR_FAULTS.map((f) => f.name);
const checkConfig = compileSchema(SCHEMA);

/** [] when valid; else one line per error, `/retry/factor: must be >= 1`. */
export function validateSimulatorConfigFile(value: unknown): string[] {
  return checkConfig(value).map(formatProblem);
}

/** DESIGN.md "simulate": COLLECT_SANDBOX_NUMBERS, comma-separated; default 0244000001,0244000002. */
export function sandboxNumbersFromEnv(env: NodeJS.ProcessEnv): string[] {
  return (env['COLLECT_SANDBOX_NUMBERS'] || '0244000001,0244000002').split(',').map((n) => n.trim()).filter(Boolean);
}

/** Reads, validates and converts a config file; relative file paths are relative to it. */
export function loadSimulatorConfigFile(path: string, env: NodeJS.ProcessEnv = process.env): { config: Partial<SimulatorConfig>; clientId?: number } {
  const read = readJsonFile(path);
  if (!read.ok) throw new SimulatorConfigError(`${path}: ${read.reason}`);
  const errors = validateSimulatorConfigFile(read.value);
  if (errors.length > 0) throw new SimulatorConfigError(`${path}: ${errors.join('; ')}`);
  const file = read.value as SimulatorConfigFile;
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
  if (file.rejectionStyle) config.rejectionStyle = file.rejectionStyle;
  if (file.statusForm) config.statusForm = { ...REFERENCE_STATUS_FORM, ...file.statusForm };
  if (file.faults) config.faults = file.faults;
  return file.clientId === undefined ? { config } : { config, clientId: file.clientId };
}
