// The config file of `collect-conformance receiver --config FILE`, checked against
// config.schema.json (JSON Schema 2020-12). Errors name the JSON path of the bad field.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { compileSchema, formatProblem, readJsonFile, type SchemaProblem } from '../schemas/index.ts';
import { RECEIVER_FAULT_NAMES, type ReceiverFault } from './faults.ts';
import { ReceiverConfigError, type ReceiverConfigInput, type ReceiverConfirmConfig } from './config.ts';
import type { SqlApplyMode } from './sql-store.ts';
import type { ReceiverVolumeConfig } from './volume.ts';

export const RECEIVER_CONFIG_SCHEMA_URL = new URL('./config.schema.json', import.meta.url);

export interface ReceiverConfigFile {
  host?: string;
  port?: number;
  callbackPath?: string;
  hooksPath?: string;
  hooks?: boolean;
  workMs?: number;
  timeScale?: number;
  faults?: ReceiverFault[];
  shedding?: boolean;
  volume?: Partial<ReceiverVolumeConfig>;
  transactionIds?: { template: string; maxLength?: number };
  tls?: { keyFile: string; certFile: string };
  confirms?: ConfirmsInFile;
  store?: { database: { env: string }; mode?: SqlApplyMode };
}

/** `confirms` as a file holds it: everything but the keys, which come from the environment. */
export type ConfirmsInFile = Omit<ReceiverConfirmConfig, 'clientKey' | 'secretKey' | 'clientId' | 'status'> & {
  clientId?: number;
  status?: Partial<NonNullable<ReceiverConfirmConfig['status']>>;
};

const SCHEMA = JSON.parse(readFileSync(RECEIVER_CONFIG_SCHEMA_URL, 'utf8')) as { properties: { faults: { items: Record<string, unknown> } } };
// The fault names are data in faults.ts (the storm's volume faults too); the schema gets them from there.
SCHEMA.properties.faults.items['enum'] = [...RECEIVER_FAULT_NAMES];
const checkConfig = compileSchema(SCHEMA);

// A token written in the file is refused with a hint: secrets come from the environment only.
function describe(problem: SchemaProblem): string {
  const hint = problem.keyword === 'additionalProperties' && problem.key === 'callbackToken'
    ? ' (the token comes from COLLECT_CALLBACK_TOKEN, never from a file)'
    : problem.keyword === 'additionalProperties' && (problem.key === 'clientKey' || problem.key === 'secretKey')
      ? ' (the keys come from COLLECT_CLIENT_KEY and COLLECT_SECRET_KEY, never from a file)' : '';
  return formatProblem(problem) + hint;
}

/** Checks a parsed config file; throws ReceiverConfigError naming every bad field. */
export function parseReceiverConfigFile(value: unknown, source = 'config'): ReceiverConfigFile {
  const problems = checkConfig(value);
  if (problems.length > 0) throw new ReceiverConfigError(`${source}: ${problems.map(describe).join('; ')}`);
  return value as ReceiverConfigFile;
}

export interface LoadedReceiverConfigFile {
  config: ReceiverConfigInput;
  listen: { host?: string; port?: number };
  /** Confirming, as the file says; the keys are added from the environment (the CLI). */
  confirms?: ConfirmsInFile;
}

/** Reads and checks FILE; tls key and cert files are read relative to it, a store's URL from `env`. */
export function loadReceiverConfigFile(path: string, env: Record<string, string | undefined> = process.env): LoadedReceiverConfigFile {
  const read = readJsonFile(path);
  if (!read.ok) throw new ReceiverConfigError(`${path}: ${read.reason}`);
  const file = parseReceiverConfigFile(read.value, path);
  const { host, port, tls, confirms, store, ...rest } = file;
  const config: ReceiverConfigInput = { ...rest };
  if (store) {
    const url = env[store.database.env];
    if (url === undefined || url === '') throw new ReceiverConfigError(`${path}: /store/database: environment variable ${store.database.env} is not set`);
    config.store = { url, mode: store.mode ?? 'conditional-update' };
  }
  if (tls) {
    const base = dirname(resolve(path));
    const read = (field: 'keyFile' | 'certFile') => {
      try {
        return readFileSync(resolve(base, tls[field]), 'utf8');
      } catch (error) {
        throw new ReceiverConfigError(`${path}: /tls/${field}: cannot read ${tls[field]} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
      }
    };
    config.tls = { key: read('keyFile'), cert: read('certFile') };
  }
  const listen: { host?: string; port?: number } = {};
  if (host !== undefined) listen.host = host;
  if (port !== undefined) listen.port = port;
  return { config, listen, ...(confirms ? { confirms } : {}) };
}
