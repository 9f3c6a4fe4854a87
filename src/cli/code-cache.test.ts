import { chmodSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../test/temp-folder.js';
import { CODE_CACHE_LIMIT_BYTES, CodeCache, codeCacheFolder, SAVE_AFTER_MS } from './code-cache.js';

let files = 0;

/**
 * Runs `source` as a CommonJS module compiled by `cache`; what it exported. Each run names another
 * file, as the next process would see the same file: V8 keeps what it compiled in this process by
 * source and name, and would answer from there without reading the cache.
 */
function run(cache: CodeCache, source: string, filename = `/bundle/chunk-${++files}.cjs`): unknown {
  const module = { exports: {} as unknown };
  cache.compile(source, filename).call(module.exports, module.exports, createRequire(filename), module, filename, '/bundle');
  return module.exports;
}

/** The files of a cache kept under `root`. */
const cacheFiles = (root: string) => readdirSync(join(root, `${process.version}-${process.arch}`));

/** A module with enough functions for V8 to have code worth caching. */
const SOURCE = `${Array.from({ length: 50 }, (_, i) => `function f${i}(x) { return x * ${i} + ${i}; }`).join('\n')}
module.exports = { answer: f7(6), name: 'first' };`;

describe('the code cache of the bundled CLI', () => {
  it('docs/operations.md states when it is written and how large a folder may grow, as the code has them', () => {
    const page = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
    expect(SAVE_AFTER_MS).toBe(2_000);
    expect(page).toContain('It is written two seconds after the start');
    expect(page).toContain(`holds at most ${CODE_CACHE_LIMIT_BYTES / 1024 / 1024} MB`);
  });

  it('a file compiled once from source is compiled from its cache the next time, and runs the same', ({ folder }) => {
    const first = new CodeCache(folder);
    expect(run(first, SOURCE)).toEqual({ answer: 49, name: 'first' });
    expect(first.counts).toEqual({ fromCache: 0, fromSource: 1 });
    first.save();
    expect(cacheFiles(folder)).toHaveLength(1);

    const second = new CodeCache(folder);
    expect(run(second, SOURCE)).toEqual({ answer: 49, name: 'first' });
    expect(second.counts).toEqual({ fromCache: 1, fromSource: 0 });
    second.save();
    expect(cacheFiles(folder), 'nothing is written again when the cache was used').toHaveLength(1);
  });

  it('a changed file of the same length is compiled from its own source, not from the cache of the old one', ({ folder }) => {
    const first = new CodeCache(folder);
    run(first, SOURCE);
    first.save();
    const changed = SOURCE.replace("'first'", "'other'");
    expect(changed).toHaveLength(SOURCE.length);

    const second = new CodeCache(folder);
    expect(run(second, changed)).toEqual({ answer: 49, name: 'other' });
    expect(second.counts).toEqual({ fromCache: 0, fromSource: 1 });
  });

  it('a damaged cache file is compiled from source and replaced when the process exits', ({ folder }) => {
    const first = new CodeCache(folder);
    run(first, SOURCE);
    first.save();
    const file = join(folder, `${process.version}-${process.arch}`, cacheFiles(folder)[0]!);
    const cached = readFileSync(file);
    writeFileSync(file, cached.subarray(0, cached.length >> 1));

    const second = new CodeCache(folder);
    expect(run(second, SOURCE)).toEqual({ answer: 49, name: 'first' });
    expect(second.counts).toEqual({ fromCache: 0, fromSource: 1 });
    second.save();

    const third = new CodeCache(folder);
    run(third, SOURCE);
    expect(third.counts).toEqual({ fromCache: 1, fromSource: 0 });
  });

  it("removes the oldest files of earlier builds when a save leaves the folder over its limit, and keeps this build's", ({ folder }) => {
    const versionFolder = join(folder, `${process.version}-${process.arch}`);
    mkdirSync(versionFolder, { recursive: true });
    for (const [name, daysAgo] of [
      ['old-build.bin', 3],
      ['older-build.bin', 9],
    ] as const) {
      writeFileSync(join(versionFolder, name), Buffer.alloc(60_000));
      const when = new Date(Date.now() - daysAgo * 86_400_000);
      utimesSync(join(versionFolder, name), when, when);
    }
    const cache = new CodeCache(folder, 100_000);
    run(cache, SOURCE);
    cache.save();
    const left = cacheFiles(folder);
    expect(left).toContain('old-build.bin');
    expect(left).not.toContain('older-build.bin');
    expect(
      left.filter((name) => !name.endsWith('-build.bin')),
      'the file just written',
    ).toHaveLength(1);
  });

  it('a file used by a start counts as recent: the pruning removes files of earlier builds before it', ({ folder }) => {
    const first = new CodeCache(folder);
    run(first, SOURCE);
    first.save();
    const versionFolder = join(folder, `${process.version}-${process.arch}`);
    const [used] = cacheFiles(folder);
    const longAgo = new Date(Date.now() - 30 * 86_400_000);
    utimesSync(join(versionFolder, used!), longAgo, longAgo);
    const usedBytes = readFileSync(join(versionFolder, used!)).length;
    writeFileSync(join(versionFolder, 'earlier-build.bin'), Buffer.alloc(60_000));
    const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000);
    utimesSync(join(versionFolder, 'earlier-build.bin'), threeDaysAgo, threeDaysAgo);

    const cache = new CodeCache(folder, usedBytes + 30_000);
    run(cache, SOURCE);
    expect(cache.counts.fromCache).toBe(1);
    // Something else compiled from source, so that this run saves (and prunes).
    run(cache, `${SOURCE}\nmodule.exports.more = 1;`);
    cache.save();
    expect(cacheFiles(folder)).toContain(used);
    expect(cacheFiles(folder)).not.toContain('earlier-build.bin');
  });

  it('keeps the line numbers of the file in stack traces', ({ folder }) => {
    const cache = new CodeCache(folder);
    const thrower = 'module.exports = () => {\n  return new Error("here");\n};';
    const make = run(cache, thrower, '/bundle/chunk-thrower.cjs') as () => Error;
    expect(make().stack).toContain('/bundle/chunk-thrower.cjs:2:');
  });

  it('a folder that others may write to is not used: every start compiles from source, and nothing is written there', ({ folder }) => {
    const shared = join(folder, 'cache');
    mkdirSync(shared, { mode: 0o777 });
    chmodSync(shared, 0o777);
    const cache = new CodeCache(shared);
    expect(run(cache, SOURCE)).toEqual({ answer: 49, name: 'first' });
    cache.save();
    expect(readdirSync(shared), 'not even its folder for this Node').toEqual([]);
  });

  it('a folder that cannot be made leaves the CLI as it is without a cache, with no error', ({ folder }) => {
    const blocked = join(folder, 'a-file');
    writeFileSync(blocked, '');
    const cache = new CodeCache(join(blocked, 'cache'));
    expect(run(cache, SOURCE)).toEqual({ answer: 49, name: 'first' });
    expect(() => cache.save()).not.toThrow();
    expect(cache.counts).toEqual({ fromCache: 0, fromSource: 1 });
  });

  it("lives in the user's temporary folder, and NODE_DISABLE_COMPILE_CACHE=1 (the variable Node reads for its own cache) turns it off", () => {
    const folder = codeCacheFolder({});
    expect(folder?.startsWith(tmpdir())).toBe(true);
    expect(codeCacheFolder({ NODE_DISABLE_COMPILE_CACHE: '0' })).toBe(folder);
    expect(codeCacheFolder({ NODE_DISABLE_COMPILE_CACHE: '1' })).toBeUndefined();
  });
});
