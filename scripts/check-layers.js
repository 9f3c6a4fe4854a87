#!/usr/bin/env node
// node scripts/check-layers.js: the floors of src/ (.dependency-cruiser.cjs) checked by
// dependency-cruiser: no import circle (`import type` included), no import from a floor to one
// above it but the listed exceptions, which are at most MAX_EXCEPTIONS. Exit 1 on a violation.
//
// dependency-cruiser reads TypeScript with the compiler API of TypeScript 2 to 6, which
// TypeScript 7 (the project's compiler, a native port) no longer ships. The devDependency
// `typescript5` (npm:typescript@5) is linked where dependency-cruiser looks for `typescript` first,
// its own node_modules; the build and the typecheck keep TypeScript 7.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const MAX_EXCEPTIONS = 15;

const own = join(ROOT, 'node_modules', 'dependency-cruiser', 'node_modules');
if (!existsSync(join(own, 'typescript'))) {
  mkdirSync(own, { recursive: true });
  symlinkSync(join('..', '..', 'typescript5'), join(own, 'typescript'), 'dir');
}

const { exceptions } = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs'));
if (exceptions.length > MAX_EXCEPTIONS) {
  process.stderr.write(`check-layers: ${exceptions.length} imports up a floor are allowed in .dependency-cruiser.cjs; at most ${MAX_EXCEPTIONS}: move shared parts down instead.\n`);
  process.exit(1);
}
const cruise = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs'), 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], {
  cwd: ROOT,
  stdio: 'inherit',
});
if (cruise.status === 0) process.stdout.write(`check-layers: ${exceptions.length} of at most ${MAX_EXCEPTIONS} imports up a floor, each with its reason in .dependency-cruiser.cjs\n`);
process.exit(cruise.status ?? 1);
