// The receiver's configuration: defaults, and the checks that make a bad value fail at start
// (naming the field) rather than at the first callback.
import { randomBytes } from 'node:crypto';
import { shapeProblems, type TransactionIdShape } from '../ids/index.ts';
import { parseDatabaseUrl } from '../database/index.ts';
import type { StatusEndpoint } from '../status/index.ts';
import { isReceiverFault, type ReceiverFault } from './faults.ts';
import { SQL_APPLY_MODES, type SqlApplyMode } from './sql-store.ts';
import { VOLUME_DEFAULTS, type ReceiverVolumeConfig } from './volume.ts';

export interface ReceiverConfig {
  /** The pre-shared X-Callback-Token value (§2.2). Generated when not given. */
  callbackToken: string;
  /** Where callbacks are served; default '/callback'. */
  callbackPath: string;
  /** Where the test hooks of DESIGN.md are served; default '/_conformance'. */
  hooksPath: string;
  /** Test hooks on (default) or off (a black-box receiver). */
  hooks: boolean;
  /** Fulfilment work done after replying, in ms before scaling. */
  workMs: number;
  /** Multiplies every delay; 1 = real time, tests use 0.01–0.05. */
  timeScale: number;
  faults: ReceiverFault[];
  /**
   * Accept only callbacks whose transaction_id has this shape (as a receiver that issues its
   * own ids, e.g. `{id}-{uuid}`, does); others get 400 ERR_MALFORMED_TRANSACTION_ID. Correct
   * behaviour, not a fault. Default: any id.
   */
  transactionIds?: TransactionIdShape;
  /** Serve https with this PEM key and certificate. */
  tls?: { key: string; cert: string };
  /**
   * Confirm outcomes through the service's transaction status endpoint before fulfilment
   * (§6 rule 5); absent: apply them as they arrive. A correct mode, not a fault.
   */
  confirms?: ReceiverConfirmConfig;
  /**
   * Keep the records in this PostgreSQL or MySQL/MariaDB database (tables created on start:
   * sql/), applying outcomes in `mode`, instead of in memory. `url` carries a password: keep it
   * out of output (the receiver's own log redacts it).
   */
  store?: { url: string; mode: SqlApplyMode };
  /**
   * Sheds load (a correct mode, not a fault): each callback holds one of `volume.poolSize`
   * connections for `volume.holdMs` before its reply, and a callback that finds
   * `volume.shedAbove` others waiting is answered 503 with Retry-After (`volume.retryAfterS`),
   * changing nothing. Default false.
   */
  shedding: boolean;
  /** Sizes of the cache, pool and queue the volume faults and `shedding` use (volume.ts). */
  volume: ReceiverVolumeConfig;
  /** Where log lines go (one line each, no newline); default: stderr. */
  log?: (line: string) => void;
}

/** Where and how a confirming receiver asks the service about a transaction (harness/status). */
export interface ReceiverConfirmConfig {
  /** The service's base URL (the status endpoint's path is under it). */
  baseUrl: string;
  clientId: number;
  clientKey: string;
  secretKey: string;
  /** What to call (default: the suite's position, STATUS_POSITION). */
  status?: StatusEndpoint;
  /**
   * Time limit of one status query in ms, not scaled by timeScale: it must end well inside the
   * service's reply deadline (§6 rule 3). Default 1500, half the suite's default deadline.
   */
  timeoutMs?: number;
  /** Confirm FAILED outcomes too (default false: only SUCCESS, the outcome that fulfils). */
  failed?: boolean;
}

export const DEFAULT_CONFIRM_TIMEOUT_MS = 1500;

/**
 * 5 s of work: at timeScale 1 it exceeds the default replyDeadlineMs (3000), so `slow-reply`
 * is caught by a case that waits for the reply.
 */
export const DEFAULT_WORK_MS = 5000;

export const RECEIVER_DEFAULTS: Omit<ReceiverConfig, 'callbackToken'> = {
  callbackPath: '/callback',
  hooksPath: '/_conformance',
  hooks: true,
  workMs: DEFAULT_WORK_MS,
  timeScale: 1,
  faults: [],
  shedding: false,
  volume: VOLUME_DEFAULTS,
};

export class ReceiverConfigError extends Error {
  override readonly name = 'ReceiverConfigError';
  readonly code = 'ERR_RECEIVER_CONFIG';
}

/** A random test token (never a real one); printed once by the CLI when it generated it. */
export function generateTestToken(): string {
  return `test-${randomBytes(18).toString('base64url')}`;
}

/** What a caller gives: any field, `volume` in part. */
export type ReceiverConfigInput = Partial<Omit<ReceiverConfig, 'volume'>> & { volume?: Partial<ReceiverVolumeConfig> };

export function resolveReceiverConfig(partial: ReceiverConfigInput = {}): ReceiverConfig {
  const config: ReceiverConfig = {
    ...RECEIVER_DEFAULTS,
    ...stripUndefined(partial),
    callbackToken: partial.callbackToken ?? generateTestToken(),
    faults: [...(partial.faults ?? RECEIVER_DEFAULTS.faults)],
    volume: { ...VOLUME_DEFAULTS, ...stripUndefined(partial.volume ?? {}) },
  };
  checkConfig(config);
  return config;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function fail(field: string, message: string): never {
  throw new ReceiverConfigError(`receiver config: ${field}: ${message}`);
}

function checkConfig(config: ReceiverConfig): void {
  if (typeof config.callbackToken !== 'string' || config.callbackToken.length === 0) {
    fail('callbackToken', 'must be a non-empty string');
  }
  // Header values cannot carry CR, LF or NUL, and Node strips surrounding spaces and tabs:
  // such a token could never be presented, so every callback would get 403.
  if (/[\r\n\0]/.test(config.callbackToken) || config.callbackToken !== config.callbackToken.replace(/^[ \t]+|[ \t]+$/g, '')) {
    fail('callbackToken', 'must not contain CR, LF, NUL or leading/trailing spaces');
  }
  // Node reads header bytes as latin1: a token beyond ASCII would arrive as its UTF-8 bytes and
  // never equal the configured text (and could match a mangled one). Refuse it here, clearly.
  if (!/^[\x20-\x7e]+$/.test(config.callbackToken)) {
    fail('callbackToken', 'must be printable ASCII (a header value); non-ASCII characters cannot be compared reliably');
  }
  for (const field of ['callbackPath', 'hooksPath'] as const) {
    const path = config[field];
    if (typeof path !== 'string' || !/^\/[^?#\s]*$/.test(path)) fail(field, `must start with "/" and hold no "?", "#" or spaces (got ${JSON.stringify(path)})`);
  }
  if (config.hooks && (config.hooksPath === config.callbackPath || config.callbackPath.startsWith(`${config.hooksPath}/`))) {
    fail('hooksPath', 'must not overlap callbackPath');
  }
  if (typeof config.hooks !== 'boolean') fail('hooks', 'must be a boolean');
  if (!Number.isFinite(config.workMs) || config.workMs < 0) fail('workMs', `must be a number >= 0 (got ${String(config.workMs)})`);
  if (!Number.isFinite(config.timeScale) || config.timeScale <= 0) fail('timeScale', `must be a number > 0 (got ${String(config.timeScale)})`);
  if (!Array.isArray(config.faults)) fail('faults', 'must be an array of fault names');
  config.faults.forEach((name, i) => {
    if (!isReceiverFault(String(name))) fail(`faults[${i}]`, `unknown fault ${JSON.stringify(name)} (see --list-faults)`);
  });
  if (typeof config.shedding !== 'boolean') fail('shedding', 'must be a boolean');
  for (const [key, value] of Object.entries(config.volume)) {
    const least = key === 'holdMs' || key === 'itemMs' || key === 'retryAfterS' ? 0 : 1;
    if (!Number.isInteger(value) || value < least) fail(`volume.${key}`, `must be an integer >= ${least} (got ${String(value)})`);
  }
  if (config.transactionIds !== undefined) {
    const ids = config.transactionIds;
    if (typeof ids !== 'object' || ids === null || typeof ids.template !== 'string') fail('transactionIds', 'must be {template, maxLength?}');
    for (const problem of shapeProblems(ids)) fail(`transactionIds.${problem.field}`, problem.message);
  }
  if (config.store !== undefined) {
    const parsed = typeof config.store.url === 'string' ? parseDatabaseUrl(config.store.url) : { ok: false as const, problem: 'is not a string' };
    // The URL is never quoted: it carries the password.
    if (!parsed.ok) fail('store.url', parsed.problem);
    if (!SQL_APPLY_MODES.includes(config.store.mode)) fail('store.mode', `must be ${SQL_APPLY_MODES.join(' or ')} (got ${JSON.stringify(config.store.mode)})`);
  }
  if (config.tls !== undefined && (typeof config.tls.key !== 'string' || typeof config.tls.cert !== 'string')) {
    fail('tls', 'must be {key, cert} PEM strings');
  }
  if (config.confirms !== undefined) checkConfirms(config.confirms);
}

function checkConfirms(c: ReceiverConfirmConfig): void {
  if (typeof c !== 'object' || c === null) fail('confirms', 'must be {baseUrl, clientId, clientKey, secretKey, status?, timeoutMs?, failed?}');
  if (typeof c.baseUrl !== 'string' || !/^https?:\/\//i.test(c.baseUrl) || !URL.canParse(c.baseUrl)) fail('confirms.baseUrl', `must be an http:// or https:// URL (got ${JSON.stringify(c.baseUrl)})`);
  if (!Number.isSafeInteger(c.clientId)) fail('confirms.clientId', `must be an integer (got ${JSON.stringify(c.clientId)})`);
  for (const key of ['clientKey', 'secretKey'] as const) {
    if (typeof c[key] !== 'string' || c[key].length === 0) fail(`confirms.${key}`, 'must be a non-empty string');
  }
  if (c.timeoutMs !== undefined && (!Number.isFinite(c.timeoutMs) || c.timeoutMs <= 0)) fail('confirms.timeoutMs', `must be a number > 0 (got ${String(c.timeoutMs)})`);
  if (c.failed !== undefined && typeof c.failed !== 'boolean') fail('confirms.failed', 'must be a boolean');
  const s = c.status;
  if (s !== undefined) {
    if (s.method !== 'POST' && s.method !== 'GET') fail('confirms.status.method', `must be POST or GET (got ${JSON.stringify(s.method)})`);
    if (typeof s.path !== 'string' || !s.path.startsWith('/')) fail('confirms.status.path', `must start with "/" (got ${JSON.stringify(s.path)})`);
    if (typeof s.pointer !== 'string' || !/^(\/([^~]|~[01])*)*$/.test(s.pointer)) fail('confirms.status.pointer', `must be a JSON pointer (got ${JSON.stringify(s.pointer)})`);
  }
}
