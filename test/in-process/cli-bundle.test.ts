/**
 * The built CLI (dist/cli/, `npm run build`): a client command such as `trigger`, `wait` or
 * `health` loads only the entry module and the chunks it imports statically, so those must not
 * hold the server, the scenario checks or the fuzzer (each process start compiles what it loads).
 * The bundle is CommonJS (for its code
 * cache, src/cli/code-cache.ts): what a file loads at once is a top-level require(); what a
 * command loads when it runs is reached through a deferred require() and is not counted here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../../dist/cli/', import.meta.url));

/** The files a start loads before any command runs: the entry and its static imports, transitively. */
function staticallyLoaded(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(join(CLI, file), 'utf8');
    for (const [, target] of source.matchAll(/^(?:const \w+ = )?require\("\.\/([^"]+)"\);?$/gm)) visit(target!);
  };
  visit(entry);
  return [...seen];
}

/** The npm packages bundled into `files` (rolldown marks each module with a `// node_modules/<package>/...` line). */
function packagesIn(files: string[]): string[] {
  const packages = new Set<string>();
  for (const file of files) {
    for (const [, name] of readFileSync(join(CLI, file), 'utf8').matchAll(/^\/\/ node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)) packages.add(name!);
  }
  return [...packages].sort();
}

/** A require() of the chunk `name` that runs only when the command does (rolldown's form of a dynamic import()). */
const deferredRequire = (name: string) => new RegExp(`Promise\\.resolve\\(\\)\\.then\\(\\(\\) => require\\("\\./(chunk-${name}-[^"]+\\.cjs)"\\)\\)`);

it('a start loads commander and the client commands only: no server, zod, yaml, regex engine or fuzzer until a command asks', () => {
  const loaded = staticallyLoaded('deposit-sandbox.cjs');
  expect(packagesIn(loaded)).toEqual(['commander']);
  const all = readFileSync(join(CLI, 'deposit-sandbox.cjs'), 'utf8');
  // The commands that need more load it when they run.
  for (const chunk of ['serve', 'scenarios', 'check-callback-command', 'sign-command']) expect(all).toMatch(deferredRequire(chunk));
});

it('every package the server uses is in what serve loads when it runs', () => {
  const serveChunk = readFileSync(join(CLI, 'deposit-sandbox.cjs'), 'utf8').match(deferredRequire('serve'))?.[1];
  expect(serveChunk).toBeDefined();
  const packages = packagesIn(staticallyLoaded(serveChunk!));
  for (const name of ['hono', '@hono/node-server', 'zod', 'yaml', 're2js']) expect(packages).toContain(name);
  expect(packages).not.toContain('fast-check');
});

it('every file of the bundle runs in strict mode, as the ES modules it is built from do', () => {
  const files = readdirSync(CLI).filter((name) => name.endsWith('.cjs'));
  expect(files.length).toBeGreaterThan(5);
  for (const name of files) expect(readFileSync(join(CLI, name), 'utf8'), name).toMatch(/^(?:#![^\n]*\n)?"use strict";/);
});
