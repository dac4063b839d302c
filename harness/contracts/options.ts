// What a provider verification needs to know about the provider under test.

export interface ServiceVerifyOptions {
  side: 'service';
  /** Base URL of the collection service, e.g. http://127.0.0.1:9000. */
  baseUrl: string;
  /** The provider's own client; the request filter re-signs every request with these. */
  credentials: { clientId: number; clientKey: string; secretKey: string };
  /**
   * callback_url injected into the collect requests. Default: the pact's example
   * (https://merchant.example/…), which no callback ever reaches.
   */
  callbackUrl?: string;
  /** Customer numbers standing in for the pact's examples when the provider whitelists others. */
  customerNumbers?: { whitelisted?: string; notWhitelisted?: string };
}

export interface ReceiverVerifyOptions {
  side: 'receiver';
  /** Base URL of the receiver (scheme, host, port). */
  baseUrl: string;
  /** Where the receiver's test hooks live (DESIGN.md); without them states cannot be seeded. */
  hooksUrl?: string;
  /** The receiver's configured X-Callback-Token; replaces the pact's placeholder token. */
  callbackToken: string;
  /** Path of the callback endpoint on the receiver; default the pact's `/callback`. */
  callbackPath?: string;
}

export interface CommonVerifyOptions {
  /** Pact file to verify; default the shipped one in vectors/pacts/. */
  pactFile?: string;
  /** Pact's log level (the native core's). Default 'warn'. */
  logLevel?: 'trace' | 'debug' | 'info' | 'warn' | 'error';
  /** Called before the built-in setup of every provider state (e.g. to reconfigure a provider). */
  onState?: (state: string, params: Record<string, unknown>) => Promise<void>;
  /** Prefix of the fresh transaction ids of this verification; default random. */
  runTag?: string;
}

export type VerifyProviderOptions = (ServiceVerifyOptions | ReceiverVerifyOptions) & CommonVerifyOptions;

