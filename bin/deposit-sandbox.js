#!/usr/bin/env node
'use strict';
// CommonJS (bin/package.json says so): Node runs a CommonJS script without starting its ES module
// loader, which every command would otherwise pay for at its start.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

// The CLI as a bundle (built by `npm run build`): starting it reads a few files instead of a few
// hundred; each command loads the rest it needs. Its files are compiled with a code cache
// (dist/cli/code-cache.cjs), so a start reuses the code the last one compiled.
const folder = join(__dirname, '..', 'dist', 'cli');
const main = join(folder, 'deposit-sandbox.cjs');
if (!existsSync(main)) {
  process.stderr.write('deposit-sandbox: the build is missing (dist/). Run `npm install` or `npm run build` in the package folder.\n');
  process.exit(1);
}
try {
  require(join(folder, 'code-cache.cjs')).useCodeCache(folder);
} catch {
  // Without its code cache the CLI runs as well, compiled from source.
}
require(main);
