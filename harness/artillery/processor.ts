// The Artillery processor of an exported storm: a self-contained CommonJS file, generated from
// the kit's own functions' source (`Function.prototype.toString`), so the callback URL is §6
// composition exactly as the native storm composes it (harness/callback), and a bad token is
// presented exactly as the native driver presents it (harness/storm `tokenValue`). Nothing is
// bundled and nothing is imported at run time but Node's own modules.
//
// What it does for each payload row (one planned delivery): records when the virtual user
// arrived (the intended send), builds the callback URL and the X-Callback-Token from the token in
// an environment variable (never in a file), times the reply to its last byte, retries as the
// service would (a reply not 2xx within the deadline: back-off or Retry-After, a bounded number
// of attempts, valid tokens only), and writes one line per attempt to a delivery log (the per-id
// histories `storm --judge` needs). A delivery with no reply (Artillery's time-out or a reset)
// counts as late with its elapsed time, in the custom histogram `collect.delivery_ms`: Artillery's
// own `http.response_time` has no sample for it.
import { CALLBACK_PARAM_NAMES, composeCallbackUrl, encodeCallbackQuery, formEncode, separatorAfter, splitFragment } from '../callback/index.ts';
import { tokenValue } from '../storm/index.ts';

/** The environment variable the processor reads the receiver's token from. */
export const TOKEN_ENV = 'COLLECT_CALLBACK_TOKEN';
/** Where the delivery logs go (default: `deliveries/` beside the processor). */
export const LOG_DIR_ENV = 'COLLECT_STORM_LOG_DIR';
/** The first line of every delivery log. */
export const LOG_FORMAT = 'collect-conformance storm deliveries 1';
/** One attempt per line: a JSON array of these, times in epoch ms. */
export const LOG_FIELDS = ['index', 'copy', 'attempt', 'token', 'intended', 'dispatched', 'wire', 'end', 'status', 'failure', 'retryAfterS'] as const;
/** The payload's columns, in order. */
export const PAYLOAD_FIELDS = ['row', 'index', 'copy', 'token', 'when', 'atMs', 'transaction_id', 'status', 'message'] as const;
/** Custom metrics the processor emits into Artillery's report. */
export const METRICS = {
  deliveryMs: 'collect.delivery_ms',
  late: 'collect.deliveries.late',
  noReply: 'collect.deliveries.no_reply',
  retries: 'collect.deliveries.retries',
  shed: 'collect.deliveries.shed',
  bad2xx: 'collect.bad_token.answered_2xx',
  /** `collect.unanswered.<index>`: a valid delivery of that id ended all its attempts without a 2xx. */
  unansweredPrefix: 'collect.unanswered.',
} as const;

export interface ProcessorSettings {
  callbackUrl: string;
  /** The target names a token: read it from `tokenEnv`, and refuse to start without it. */
  hasToken: boolean;
  tokenEnv: string;
  logDirEnv: string;
  /** Names the delivery logs (the plan's tag). */
  runId: string;
  replyDeadlineMs: number;
  timeoutMs: number;
  maxAttempts: number;
  backoffMs: number;
  maxBackoffMs: number;
  timeScale: number;
  logFormat: string;
  logFields: readonly string[];
  metrics: typeof METRICS;
}

/** What the processor gets from its file (Node's modules) or from a test. */
export interface ProcessorDeps {
  composeCallbackUrl: typeof composeCallbackUrl;
  tokenValue: typeof tokenValue;
  env: Record<string, string | undefined>;
  /** Epoch ms, sub-millisecond. */
  now: () => number;
  fs: Pick<typeof import('node:fs'), 'mkdirSync' | 'openSync' | 'writeSync'>;
  path: Pick<typeof import('node:path'), 'join'>;
  here: string;
  host: string;
  pid: number;
  threadId: number;
}

type Vars = Record<string, unknown>;
interface Context { vars: Vars }
interface Events { emit(kind: 'counter' | 'histogram', name: string, value: number): void }
type Next = (error?: unknown) => void;

/**
 * The processor's hooks. Its source goes into the exported file as it is: it may use nothing
 * but its arguments and JavaScript's globals.
 */
export function stormProcessor(settings: ProcessorSettings, deps: ProcessorDeps) {
  const token = settings.hasToken ? deps.env[settings.tokenEnv] : undefined;
  if (settings.hasToken && !token) {
    throw new Error(`${settings.tokenEnv} is not set: the callbacks carry the receiver's token, read from that variable (artillery run-fargate --secret ${settings.tokenEnv}), never from a file`);
  }
  const m = settings.metrics;
  let fd: number | undefined;
  const write = (fields: unknown[]) => {
    if (fd === undefined) {
      const dir = deps.env[settings.logDirEnv] || deps.path.join(deps.here, 'deliveries');
      deps.fs.mkdirSync(dir, { recursive: true });
      const file = deps.path.join(dir, `${settings.runId}-${deps.host}-${deps.pid}-${deps.threadId}-${Math.floor(deps.now()).toString(36)}.jsonl`);
      fd = deps.fs.openSync(file, 'a');
      deps.fs.writeSync(fd, `${JSON.stringify({ format: settings.logFormat, fields: settings.logFields, runId: settings.runId, host: deps.host, pid: deps.pid, threadId: deps.threadId })}\n`);
    }
    deps.fs.writeSync(fd, `${JSON.stringify(fields)}\n`);
  };
  const num = (v: unknown) => Number(v);
  const is2xx = (status: number) => status >= 200 && status <= 299;
  const retryAfterSeconds = (value: unknown): number | null => {
    const text = Array.isArray(value) ? value[0] : value;
    if (typeof text !== 'string') return null;
    if (/^\d+$/.test(text.trim())) return Number(text.trim());
    const at = Date.parse(text);
    return Number.isNaN(at) ? null : Math.max(0, (at - Date.now()) / 1000);
  };
  const failureOf = (error: unknown) => {
    const code = (error as { code?: string } | undefined)?.code;
    if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') return 'timeout';
    if (code === 'ECONNRESET' || code === 'EPIPE') return 'reset';
    if (code === 'ECONNREFUSED') return 'refused';
    return 'other';
  };
  /** One attempt ended: logged, measured, and the next attempt decided (`_ccAgain`: its delay, or -1). */
  const ended = (vars: Vars, events: Events, status: number, failure: string | null, wire: number | null, retryAfterS: number | null) => {
    const end = deps.now();
    const intended = num(vars._ccIntended);
    const attempt = num(vars._ccAttempt);
    const valid = vars.token === 'valid';
    write([num(vars.index), num(vars.copy), attempt, vars.token, intended, num(vars._ccDispatched), wire, end, status, failure, retryAfterS]);
    const totalMs = end - intended;
    vars._ccAgain = -1;
    if (!valid) {
      if (is2xx(status)) events.emit('counter', m.bad2xx, 1);
      return;
    }
    events.emit('histogram', m.deliveryMs, totalMs);
    if (totalMs > settings.replyDeadlineMs || failure) events.emit('counter', m.late, 1);
    if (failure) events.emit('counter', m.noReply, 1);
    if (status === 429 || status === 503) events.emit('counter', m.shed, 1);
    const inTime = !failure && is2xx(status) && totalMs <= settings.replyDeadlineMs;
    // Artillery ends the virtual user at a time-out or a reset: no attempt can follow one.
    if (!inTime && !failure && attempt < settings.maxAttempts) {
      const backoff = retryAfterS === null ? settings.backoffMs * 2 ** (attempt - 1) : retryAfterS * 1000;
      vars._ccAgain = Math.min(settings.maxBackoffMs, backoff) * settings.timeScale;
      events.emit('counter', m.retries, 1);
    }
    if (is2xx(status)) vars._ccAnswered = 1;
    if (vars._ccAgain === -1 && !vars._ccAnswered) events.emit('counter', `${m.unansweredPrefix}${num(vars.index)}`, 1);
  };

  return {
    /** The virtual user arrived: its delivery's intended send. */
    startDelivery(context: Context, _events: Events, next: Next) {
      context.vars._ccAttempt = 1;
      context.vars._ccIntended = deps.now();
      next();
    },
    /** beforeRequest: the callback URL (§6) and the token as this row presents it. */
    composeCallback(req: { url: string; headers?: Record<string, string> }, context: Context, _events: Events, next: Next) {
      const vars = context.vars;
      req.url = deps.composeCallbackUrl(settings.callbackUrl, { transaction_id: String(vars.transaction_id), status: String(vars.status), message: String(vars.message) });
      const headers: Record<string, string> = { ...(req.headers ?? {}) };
      const value = token === undefined ? undefined : deps.tokenValue(vars.token as Parameters<typeof tokenValue>[0], token);
      if (value === undefined) delete headers['x-callback-token'];
      else headers['x-callback-token'] = value;
      req.headers = headers;
      vars._ccDispatched = deps.now();
      next();
    },
    /** afterResponse: the reply's status, its Retry-After, and when it was sent (got's timings, where given). */
    recordReply(_req: unknown, res: { statusCode: number; headers?: Record<string, unknown>; timings?: { upload?: number } }, context: Context, events: Events, next: Next) {
      const upload = res.timings?.upload;
      ended(context.vars, events, res.statusCode, null, typeof upload === 'number' ? upload : null, retryAfterSeconds(res.headers?.['retry-after']));
      next();
    },
    /** Scenario onError: no reply (time-out, reset, refused); Artillery ends the virtual user after it. */
    recordNoReply(error: unknown, _req: unknown, context: Context, events: Events, next: Next) {
      ended(context.vars, events, 0, failureOf(error), null, null);
      next();
    },
    /** The loop's whileTrue: another attempt after its back-off, due then. */
    sendAgain(context: Context, next: (again: boolean) => void) {
      const delay = num(context.vars._ccAgain);
      if (!(delay >= 0)) {
        next(false);
        return;
      }
      const due = deps.now() + delay;
      setTimeout(() => {
        context.vars._ccAttempt = num(context.vars._ccAttempt) + 1;
        context.vars._ccIntended = due;
        next(true);
      }, delay);
    },
  };
}

export type StormProcessor = ReturnType<typeof stormProcessor>;

/** The kit's functions the processor's file carries, in an order where each is defined before use at run time. */
const KIT_FUNCTIONS = [formEncode, encodeCallbackQuery, splitFragment, separatorAfter, composeCallbackUrl, tokenValue, stormProcessor] as const;

/** The processor file's text. */
export function processorSource(settings: ProcessorSettings, banner: string): string {
  return [
    `// ${banner}`,
    '// Generated: the callback URL composition and the bad-token forms are the kit\'s own functions\' source.',
    `// The token comes from the environment variable ${settings.tokenEnv}; it is never written in this folder.`,
    '\'use strict\';',
    '// A transpiler that keeps function names (esbuild\'s keepNames, as tsx runs the kit) calls this helper in their source.',
    'const __name = (target, value) => Object.defineProperty(target, \'name\', { value, configurable: true });',
    `const CALLBACK_PARAM_NAMES = ${JSON.stringify(CALLBACK_PARAM_NAMES)};`,
    ...KIT_FUNCTIONS.map((f) => f.toString()),
    `const SETTINGS = ${JSON.stringify(settings, null, 2)};`,
    'module.exports = stormProcessor(SETTINGS, {',
    '  composeCallbackUrl, tokenValue, env: process.env, now: () => performance.timeOrigin + performance.now(),',
    '  fs: require(\'node:fs\'), path: require(\'node:path\'), here: __dirname, host: require(\'node:os\').hostname(),',
    '  pid: process.pid, threadId: require(\'node:worker_threads\').threadId,',
    '});',
    '// For tests and the export\'s own check: the composition as this file does it.',
    'module.exports.composeCallbackUrl = composeCallbackUrl;',
    'module.exports.tokenValue = tokenValue;',
    '',
  ].join('\n');
}

/** What a processor file exports. */
export type LoadedProcessor = StormProcessor & { composeCallbackUrl: typeof composeCallbackUrl; tokenValue: typeof tokenValue };

/** Loads a processor's text as Artillery would (CommonJS), with the environment given. */
export function loadProcessorSource(source: string, env: Record<string, string | undefined>, require: NodeJS.Require): LoadedProcessor {
  const module = { exports: {} as LoadedProcessor };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  new Function('module', 'exports', 'require', 'process', '__dirname', source)(module, module.exports, require, { env, pid: process.pid }, '/nonexistent');
  return module.exports;
}
