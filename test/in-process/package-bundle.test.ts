/**
 * The package's entry (`npm run build`): `import ... from 'deposit-sandbox'` loads dist/lib/index.mjs,
 * one bundle, and the chunks it imports, never the tsc build beside it (dist/index.js and the few
 * hundred modules it imports) and never a package from the merchant's node_modules: everything the
 * API uses is inside. test/pack.test.ts runs a merchant's file against the installed copy.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import * as root from '../../src/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { main: string; exports: { '.': { import: string; default: string; types: string } } };

/** Every import specifier of `file` and of the files it imports statically or dynamically, relative ones followed. */
function specifiers(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  const found = [
    ...source.matchAll(/^import\s[^;]*?from\s*"([^"]+)";?$/gm),
    ...source.matchAll(/^import\s*"([^"]+)";?$/gm),
    ...source.matchAll(/\bimport\("([^"]+)"\)/g),
    // What a bundled CommonJS package requires (rolldown's __require).
    ...source.matchAll(/\b__require\("([^"]+)"\)/g),
  ].map((m) => m[1]!);
  return found.flatMap((target) => (target.startsWith('.') ? [target, ...specifiers(join(file, '..', target), seen)] : [target]));
}

it("the package's entry (main, import and default) is the bundle; the types stay the tsc build's", () => {
  expect(pkg.exports['.'].import).toBe('./dist/lib/index.mjs');
  expect(pkg.exports['.'].default).toBe('./dist/lib/index.mjs');
  expect(pkg.main).toBe('./dist/lib/index.mjs');
  expect(pkg.exports['.'].types).toBe('./dist/index.d.ts');
  expect(existsSync(join(ROOT, 'dist/lib/index.mjs'))).toBe(true);
});

it('the bundle imports only Node built-ins and its own chunks: not the tsc build, not a package of the merchant', () => {
  const imported = specifiers(join(ROOT, 'dist/lib/index.mjs'));
  // The scan sees the bundle's imports at all: a built-in, and a chunk of its own.
  expect(imported).toContain('node:fs');
  expect(imported.some((target) => /^\.\/chunk-/.test(target))).toBe(true);
  expect(imported.filter((target) => target.startsWith('.') && !/^\.\/chunk-[\w-]+\.mjs$/.test(target))).toEqual([]);
  expect(imported.filter((target) => !target.startsWith('.') && !isBuiltin(target))).toEqual([]);
});

it('the bundle exports what the package root exports', () => {
  const exported = /^export \{([^}]*)\};?$/m.exec(readFileSync(join(ROOT, 'dist/lib/index.mjs'), 'utf8'))?.[1];
  const names = (exported ?? '').split(',').map(
    (part) =>
      part
        .trim()
        .split(/\s+as\s+/)
        .pop()!,
  );
  expect(names.sort()).toEqual(Object.keys(root).sort());
});
