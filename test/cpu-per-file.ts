/**
 * vitest setup file of every project: when TEST_CPU_FILE names a file (scripts/test-all.js sets
 * it), each test file appends one line there once it has run,
 *   {"file": "<path from the repository>", "self": <CPU seconds>, "children": <CPU seconds>}
 * the CPU its own process used while it ran (in a thread of the unit project, its thread's), and
 * the CPU of the processes it started and waited for (none in a thread: see cpu()). `npm test` prints the files that used the
 * most (scripts/test-times.js --cpu lists them all): wall time says which files wait, this says
 * which ones cost. Chromium's renderers are not children anyone waits for; they are counted in
 * the stage's total only. Linux only (it reads /proc); elsewhere nothing is written.
 */
import { appendFileSync, existsSync } from 'node:fs';
import { relative } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { afterAll, beforeAll, expect } from 'vitest';
// @ts-expect-error: a plain JavaScript module of the scripts, without types
import { statCpu } from '../scripts/lib/proc-stat.js';

const OUT = process.env['TEST_CPU_FILE'];
/** This thread's own statistics in a worker thread, the process's otherwise. */
const STAT = isMainThread ? '/proc/self/stat' : '/proc/thread-self/stat';

/**
 * [own, children] CPU seconds so far. A thread's children are left at 0: the children a thread's
 * statistics count are the whole process's, and a unit thread runs in vitest's own process, which
 * reaps the other projects' workers (and with them all they started) when they end.
 */
function cpu(): [number, number] {
  const used: { own: number; children: number } = statCpu(STAT) ?? { own: 0, children: 0 };
  return [used.own, isMainThread ? used.children : 0];
}

if (OUT && existsSync(STAT)) {
  let start: [number, number] = [0, 0];
  beforeAll(() => {
    start = cpu();
  });
  afterAll(() => {
    const [self, children] = cpu();
    const file = relative(process.cwd(), expect.getState().testPath ?? '');
    appendFileSync(OUT, `${JSON.stringify({ file, self: Number((self - start[0]).toFixed(2)), children: Number((children - start[1]).toFixed(2)) })}\n`);
  });
}
