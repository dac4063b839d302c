// The library's public face. Each concern lives in its own folder with its own index.ts.
export * from './signing/index.ts';
export * from './callback/index.ts';
