/**
 * The CLI's code cache (src/cli/code-cache.ts) as a user's process meets it: the first run of a
 * command writes the cache of the files it compiled, the next run is compiled from it (it finds
 * nothing missing, so writes nothing), and the output is the same either way; a cache that cannot
 * be kept changes nothing but speed. Real processes, because the cache is what one process leaves
 * to the next. Each test has its own temporary folder (TMPDIR), so no other run's cache counts.
 */
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { runCli } from './sandbox-process.js';
import { it } from './temp-folder.js';

const VERSION_FOLDER = `${process.version}-${process.arch}`;
const cacheFolder = (tmp: string) => join(tmp, `deposit-sandbox-code-cache-${process.getuid?.() ?? 'user'}`, VERSION_FOLDER);
/** Each cache file with the time it was last written. */
const written = (tmp: string) => Object.fromEntries(readdirSync(cacheFolder(tmp)).map((name) => [name, statSync(join(cacheFolder(tmp), name)).mtimeMs]));

describe('the code cache of the bundled CLI', () => {
  it('the first `scenarios` run writes the cache of what it compiled; the second is compiled from it and prints the same', async ({ folder }) => {
    const env = { TMPDIR: folder, NODE_DISABLE_COMPILE_CACHE: '' };
    const first = await runCli(['scenarios', '--json'], env);
    expect(first.code, first.stderr).toBe(0);
    const files = written(folder);
    // The entry, and the chunks the command loaded: the scenario checks and the YAML reader among them.
    expect(Object.keys(files).length).toBeGreaterThanOrEqual(3);

    const second = await runCli(['scenarios', '--json'], env);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(written(folder), 'nothing was missing or refused, so nothing was written again').toEqual(files);
  });

  it('NODE_DISABLE_COMPILE_CACHE=1 runs the CLI without a cache, and leaves no folder behind', async ({ folder }) => {
    const run = await runCli(['--version'], { TMPDIR: folder, NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('a cache folder that cannot be made (a file in its place) changes nothing a user sees', async ({ folder }) => {
    writeFileSync(join(folder, `deposit-sandbox-code-cache-${process.getuid?.() ?? 'user'}`), 'not a folder');
    const run = await runCli(['--version'], { TMPDIR: folder, NODE_DISABLE_COMPILE_CACHE: '' });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
