#!/usr/bin/env node
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('deposit-sandbox: the build is missing (dist/). Run `npm install` or `npm run build` in the package folder.\n');
  process.exit(1);
}
await import(main.href);
