/**
 * The CLI's code cache (src/cli/code-cache.ts) as a user's process meets it: the first run of a
 * command writes the cache of the files it compiled, the next run is compiled from it (it finds
 * nothing missing, so writes nothing), and the output is the same either way; a cache that cannot
 * be kept changes nothing but speed. Real processes, because the cache is what one process leaves
 * to the next. Each test has its own temporary folder (TMPDIR), so no other run's cache counts.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { killAll, runCli, startProcess, stopProcess } from './sandbox-process.js';
import { it } from './temp-folder.js';

const VERSION_FOLDER = `${process.version}-${process.arch}`;
const cacheFolder = (tmp: string) => join(tmp, `deposit-sandbox-code-cache-${process.getuid?.() ?? 'user'}`, VERSION_FOLDER);
/** Each cache file with its inode: a file written again is a new one renamed into place (a use only touches its time). */
const written = (tmp: string) => Object.fromEntries(readdirSync(cacheFolder(tmp)).map((name) => [name, statSync(join(cacheFolder(tmp), name)).ino]));

afterEach(() => killAll());

/** Resolves once the cache folder under `tmp` holds at least `count` files (as they are renamed into place). */
function cacheFilesAppear(tmp: string, count: number): Promise<void> {
  const enough = () => readdirSync(cacheFolder(tmp)).filter((name) => name.endsWith('.bin')).length >= count;
  return new Promise((resolve) => {
    // Watching from now on, then looking once: a file renamed in between is seen either way.
    const watcher = watch(cacheFolder(tmp), () => {
      if (enough()) {
        watcher.close();
        resolve();
      }
    });
    if (enough()) {
      watcher.close();
      resolve();
    }
  });
}

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

  it('a start runs the CLI and its cache as CommonJS: the ES module loader of Node runs no module (a cost every command would pay)', async ({ folder }) => {
    const probe = join(folder, 'probe.cjs');
    // Node loads its module_job module when its ES module loader runs a module, and not before.
    const loaded = "process.moduleLoadList.includes('NativeModule internal/modules/esm/module_job')";
    writeFileSync(probe, `process.on('exit', () => process.stderr.write('ES module loader ran a module: ' + ${loaded} + '\\n'));\n`);
    // The probe itself, on an ES module: it must see the loader run, or it checks nothing.
    const esm = join(folder, 'control.mjs');
    writeFileSync(esm, 'export {};\n');
    expect(spawnSync(process.execPath, ['--require', probe, esm], { encoding: 'utf8', timeout: 60_000 }).stderr).toBe('ES module loader ran a module: true\n');
    const run = await runCli(['--version'], { TMPDIR: folder, NODE_DISABLE_COMPILE_CACHE: '', NODE_OPTIONS: `--require ${JSON.stringify(probe)}` });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('ES module loader ran a module: false\n');
    expect(Object.keys(written(folder)).length, 'the cache was written').toBeGreaterThanOrEqual(1);
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

  it('a serve that is killed with -9 after its start has left its cache: the next serve is compiled from it', async ({ folder }) => {
    const env = { TMPDIR: folder, NODE_DISABLE_COMPILE_CACHE: '' };
    const first = await startProcess(['--port', '0', '--in-memory'], env);
    // Written a little after the start (src/cli/code-cache.ts, SAVE_AFTER_MS), not only at a clean exit.
    await cacheFilesAppear(folder, 4);
    first.child.kill('SIGKILL');
    await first.exited;
    const files = written(folder);

    const second = await startProcess(['--port', '0', '--in-memory'], env);
    expect(await (await fetch(`${second.url}/_sandbox/health`)).json()).toMatchObject({ status: 'ok' });
    // A clean stop writes what this run compiled from source (at exit): none of the first run's files may be among it.
    expect(await stopProcess(second)).toBe(0);
    expect(written(folder), 'the second start found every file the first one compiled in the cache').toMatchObject(files);
  });
});
