#!/usr/bin/env node
// The `prepare` script: builds dist/ (npm run build) unless it was already built from the same
// inputs. npm runs `prepare` on `npm install`/`npm ci` in a clone, when installing from git, and
// also when `npx deposit-sandbox` is typed in the clone itself: npx links the folder into its own
// cache and runs the folder's `prepare` there on the first call. Without this check that first
// call rebuilt everything (about 20 s on a small machine, and dist/ was missing meanwhile).
//
// The inputs are every file under src/, the TypeScript and rolldown configurations, package.json
// and package-lock.json; their hash is kept in node_modules/.cache/deposit-sandbox/build-inputs,
// written by `npm run build` once it succeeds (`node scripts/prepare.js --record`). `npm run build`
// always builds; `node scripts/prepare.js --check` exits 1 when dist/ is not built from the sources.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const STAMP = join(ROOT, 'node_modules', '.cache', 'deposit-sandbox', 'build-inputs');
const CONFIGS = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'tsconfig.client.json', 'rolldown.config.js'];
// What bin/deposit-sandbox.js, the package's exports and the pages load.
const OUTPUTS = ['dist/cli/deposit-sandbox.cjs', 'dist/cli/code-cache.cjs', 'dist/lib/index.mjs', 'dist/index.js', 'dist/index.d.ts', 'dist/client/pay.js', 'dist/client/dashboard.js'];

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]));
}

function inputsHash() {
  const hash = createHash('sha256');
  for (const file of [...CONFIGS.map((name) => join(ROOT, name)), ...filesUnder(join(ROOT, 'src'))]) {
    if (!existsSync(file)) continue;
    hash.update(`${relative(ROOT, file)}\0`);
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const mode = process.argv[2];
if (mode === '--record') {
  mkdirSync(dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, `${inputsHash()}\n`);
  process.exit(0);
}
const current = existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === inputsHash() && OUTPUTS.every((file) => existsSync(join(ROOT, file)));
if (mode === '--check') {
  if (!current) process.stderr.write('dist/ is not built from the current sources: run `npm run build`.\n');
  process.exit(current ? 0 : 1);
}
if (current) {
  process.stdout.write('deposit-sandbox: dist/ is already built from these sources (`npm run build` rebuilds it).\n');
} else {
  // npm_execpath: the npm that runs this script (`npm` on the PATH may be another one).
  const npm = process.env.npm_execpath;
  const build = npm ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: ROOT, stdio: 'inherit' }) : spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit', shell: true });
  process.exitCode = build.status ?? 1;
}
