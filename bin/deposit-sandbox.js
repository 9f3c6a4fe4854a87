#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The CLI as a bundle (built by `npm run build`): starting it reads a few files instead of a few
// hundred; each command loads the rest it needs. Its files are compiled with a code cache
// (dist/cli/code-cache.js), so a start reuses the code the last one compiled.
const folder = fileURLToPath(new URL('../dist/cli', import.meta.url));
const main = join(folder, 'deposit-sandbox.cjs');
if (!existsSync(main)) {
  process.stderr.write('deposit-sandbox: the build is missing (dist/). Run `npm install` or `npm run build` in the package folder.\n');
  process.exit(1);
}
try {
  const { useCodeCache } = await import('../dist/cli/code-cache.js');
  useCodeCache(folder);
} catch {
  // Without its code cache the CLI runs as well, compiled from source.
}
createRequire(import.meta.url)(main);
