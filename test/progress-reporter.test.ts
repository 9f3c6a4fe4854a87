/**
 * scripts/lib/progress-reporter.js and progressJunit(): a vitest run stopped before its end (at the
 * time bound of scripts/test-all.js) still reports each test that finished, and each file that did
 * not finish counts as a failure. Runs vitest on two small files, one of which never ends, and
 * stops it as the bound would.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { it, test } from './temp-folder.js';
// @ts-expect-error: a plain JavaScript module of the scripts, without types
import { progressJunit } from '../scripts/lib/suites.js';
// @ts-expect-error: a plain JavaScript module of the scripts, without types
import { readResults } from '../scripts/test-summary.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The file's temporary folder (the fixture removes it after the file's tests). */
let dir: string;
test.beforeAll(({ fileFolder }) => {
  dir = fileFolder;
});

it('a stopped vitest run lists every finished test, and each unfinished file as failed', async () => {
  writeFileSync(join(dir, 'vitest.config.mjs'), "export default { test: { globals: true, include: ['*.test.js'], testTimeout: 600000, maxWorkers: 2 } };\n");
  writeFileSync(join(dir, 'done.test.js'), "it('passes', () => {});\nit('fails', () => { throw new Error('wrong answer'); });\n");
  writeFileSync(join(dir, 'hangs.test.js'), "it('never ends', () => new Promise(() => {}));\n");
  const progress = join(dir, 'progress.ndjson');
  const args = [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', join(dir, 'vitest.config.mjs'), `--reporter=${join(ROOT, 'scripts/lib/progress-reporter.js')}`];
  // TMPDIR: the stopped vitest's own temporary files go into `dir`, which is removed after.
  const child = spawn(process.execPath, args, { cwd: dir, env: { ...process.env, TEST_PROGRESS_FILE: progress, TMPDIR: dir }, stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('close', resolve));
  // Stopped, as the bound stops it, once done.test.js has ended (its two results are written by then).
  const ended = () => existsSync(progress) && readFileSync(progress, 'utf8').includes('"file":"done.test.js","done":true');
  await new Promise<void>((resolve, reject) => {
    const look = setInterval(() => {
      if (ended()) {
        clearInterval(look);
        resolve();
      }
    }, 50);
    void exited.then(() => {
      clearInterval(look);
      if (ended()) resolve();
      else reject(new Error(`vitest ended before done.test.js did:\n${existsSync(progress) ? readFileSync(progress, 'utf8') : '(no progress file)'}`));
    });
  });
  child.kill('SIGKILL');
  await exited;

  const xml = progressJunit(readFileSync(progress, 'utf8'), 'vitest', 'vitest did not finish within 40 min and was stopped') as string;
  writeFileSync(join(dir, 'vitest-run.xml'), xml);
  expect(readResults(dir)).toEqual([{ suite: 'vitest-run.xml', passed: 1, failed: 2, skipped: 0 }]);
  expect(xml).toContain('name="fails" time=');
  expect(xml).toContain('<failure message="wrong answer"/>');
  expect(xml).toContain('name="hangs.test.js (did not finish)"><failure message="vitest did not finish within 40 min and was stopped"/>');
});
