#!/usr/bin/env node
// The package's command. TypeScript sources run through tsx's loader, so a checkout
// needs `npm ci` and nothing else.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../harness/cli/index.ts');
process.exitCode = await main(process.argv.slice(2));
