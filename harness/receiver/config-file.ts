// The config file of `collect-conformance receiver --config FILE`, checked against
// config.schema.json (JSON Schema 2020-12). Errors name the JSON path of the bad field.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import type { ReceiverFault } from './faults.ts';
import { ReceiverConfigError, type ReceiverConfig } from './config.ts';

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
  tls?: { keyFile: string; certFile: string };
}

let validator: ((value: unknown) => boolean) & { errors?: ErrorObject[] | null } | undefined;

function validate(value: unknown): string[] {
  if (!validator) {
    const schema = JSON.parse(readFileSync(RECEIVER_CONFIG_SCHEMA_URL, 'utf8')) as object;
    validator = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
  }
  if (validator(value)) return [];
  return (validator.errors ?? []).map(describeError);
}

function describeError(error: ErrorObject): string {
  const path = error.instancePath || '/';
  if (error.keyword === 'additionalProperties') {
    const extra = String((error.params as { additionalProperty?: unknown }).additionalProperty);
    const hint = extra === 'callbackToken' ? ' (the token comes from COLLECT_CALLBACK_TOKEN, never from a file)' : '';
    return `${path}: unknown property "${extra}"${hint}`;
  }
  if (error.keyword === 'enum') {
    return `${path}: ${error.message ?? 'not allowed'} (see --list-faults)`;
  }
  return `${path}: ${error.message ?? 'is invalid'}`;
}

/** Checks a parsed config file; throws ReceiverConfigError naming every bad field. */
export function parseReceiverConfigFile(value: unknown, source = 'config'): ReceiverConfigFile {
  const errors = validate(value);
  if (errors.length > 0) throw new ReceiverConfigError(`${source}: ${errors.join('; ')}`);
  return value as ReceiverConfigFile;
}

export interface LoadedReceiverConfigFile {
  config: Partial<ReceiverConfig>;
  listen: { host?: string; port?: number };
}

/** Reads and checks FILE; tls key and cert files are read relative to it. */
export function loadReceiverConfigFile(path: string): LoadedReceiverConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ReceiverConfigError(`${path}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ReceiverConfigError(`${path}: not JSON (${(error as Error).message})`);
  }
  const file = parseReceiverConfigFile(parsed, path);
  const { host, port, tls, ...rest } = file;
  const config: Partial<ReceiverConfig> = { ...rest };
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
  return { config, listen };
}
