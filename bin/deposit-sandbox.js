#!/usr/bin/env node
import { existsSync } from 'node:fs';

// The CLI as a bundled module (built by `npm run build`): starting it reads one file instead of
// a few hundred, which halves the time to the ready line; each command loads the rest it needs.
const main = new URL('../dist/cli/deposit-sandbox.mjs', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('deposit-sandbox: the build is missing (dist/). Run `npm install` or `npm run build` in the package folder.\n');
  process.exit(1);
}
await import(main.href);
