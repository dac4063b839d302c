// The embedded service target: the reference service in-process on 127.0.0.1:0 with generated
// credentials, resolved as a target file would be. Sources 127.0.0.1 and ::1 are whitelisted,
// so 127.0.0.2 is the harness's non-whitelisted route; numbers ending in 2 end FAILED; time is
// scaled so the whole service side runs in seconds.
import { listenerTls } from '../listener/index.ts';
import { generateCredentials, startSimulator, type RunningSimulator, type SimulatorConfig, type SimulatorFault } from '../simulator/index.ts';
import type { ResolvedServiceTarget } from '../targets/index.ts';

export interface EmbeddedServiceOptions {
  faults?: SimulatorFault[];
  /** Production mode serves the API over https and the listener over https (§6 Transport). */
  mode?: 'sandbox' | 'production';
  /** Serve the API and the listener over https also in sandbox mode. */
  tls?: boolean;
  /** Multiplies the simulator's delays (default 0.05: a 4 s first retry becomes 200 ms). */
  timeScale?: number;
  /** The simulator's processing time before the outcome, scaled by timeScale (default 1000: 50 ms). */
  processingDelayMs?: number;
  timing?: Partial<ResolvedServiceTarget['timing']>;
  /** Simulator log lines (default: dropped, the run prints its own progress). */
  log?: (line: string) => void;
  /** How the service answers refusals (a correct choice either way; default `http-status`). */
  rejectionStyle?: SimulatorConfig['rejectionStyle'];
  /** How its status endpoint answers (default: the reference form, lower case and 421). */
  statusForm?: SimulatorConfig['statusForm'];
  /** False: https callbacks trust only the system's CAs, so the listener's certificate is refused (default true). */
  trustsListenerCa?: boolean;
}

export interface EmbeddedService {
  target: ResolvedServiceTarget;
  simulator: RunningSimulator;
  close(): Promise<void>;
}

/**
 * Scaled by the default timeScale 0.05: processing 50 ms, retries after 200, 400, 800, 1600 ms.
 * Timer jitter on this machine is about ±20 ms, so intervals of 200 ms and more keep the
 * back-off judgement (×1.2 − 10 ms per step) clear of noise.
 */
export const EMBEDDED_SERVICE_DEFAULTS = {
  timeScale: 0.05,
  processingDelayMs: 1000,
  retry: { attempts: 5, initialDelayMs: 4000, factor: 2 },
  /** Long enough for processing + delivery on a loaded machine (parallel test workers, CI), short enough for the rejection watches, which wait side by side. */
  timing: { callbackTimeoutMs: 1000, retryWindowMs: 2500 },
  customerNumbers: { whitelisted: ['0244000001'], failing: ['0244000002'], notWhitelisted: ['0244999999'] },
  notWhitelistedSource: '127.0.0.2',
} as const;

export async function startEmbeddedService(options: EmbeddedServiceOptions = {}): Promise<EmbeddedService> {
  const d = EMBEDDED_SERVICE_DEFAULTS;
  const mode = options.mode ?? 'sandbox';
  const https = mode === 'production' || options.tls === true;
  const tls = await listenerTls();
  const { clients, callbackToken } = generateCredentials(2);
  const client = clients[0]!;
  const config: Partial<SimulatorConfig> = {
    mode,
    clients,
    callbackToken,
    whitelist: {
      sources: ['127.0.0.1', '::1'],
      customerNumbers: [...d.customerNumbers.whitelisted, ...d.customerNumbers.failing],
    },
    outcome: { failingSuffixes: ['2'] },
    processingDelayMs: options.processingDelayMs ?? d.processingDelayMs,
    retry: { ...d.retry },
    duplicateDeliveries: 0,
    timeScale: options.timeScale ?? d.timeScale,
    callbackTimeoutMs: 2000,
    // The listener's CA, so https callbacks validate; the same certificate serves the API.
    callbackCa: options.trustsListenerCa === false ? [] : [tls.caCert],
    ...(https ? { tls: { key: tls.key, cert: tls.cert } } : {}),
    faults: options.faults ?? [],
    ...(options.rejectionStyle ? { rejectionStyle: options.rejectionStyle } : {}),
    ...(options.statusForm ? { statusForm: options.statusForm } : {}),
  };
  const simulator = await startSimulator(config, { host: '127.0.0.1', port: 0 }, options.log ? { log: options.log } : {});
  const target: ResolvedServiceTarget = {
    side: 'service',
    baseUrl: simulator.url,
    mode,
    clientId: client.clientId,
    clientKey: client.clientKey,
    secretKey: client.secretKey,
    callbackToken,
    networkCode: 'MTN',
    customerNumbers: {
      whitelisted: [...d.customerNumbers.whitelisted],
      failing: [...d.customerNumbers.failing],
      notWhitelisted: [...d.customerNumbers.notWhitelisted],
    },
    sources: { notWhitelisted: { localAddress: d.notWhitelistedSource } },
    listener: { host: '127.0.0.1', port: 0, publicUrl: null, tls: https, plainPublicUrl: null },
    timing: { ...d.timing, ...options.timing },
    ...(https ? { caCert: tls.caCert } : {}),
  };
  return {
    target,
    simulator,
    async close() {
      await simulator.close();
    },
  };
}
