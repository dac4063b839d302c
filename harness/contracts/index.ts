// Public face of the Pact contracts: names and example values of the shipped pacts, the
// clients they describe, and provider verification (state handlers, request filters).
export * from './examples.ts';
export * from './clients.ts';
export * from './matchers.ts';
export * from './pact-files.ts';
