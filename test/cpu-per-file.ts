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
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { afterAll, beforeAll, expect } from 'vitest';

const OUT = process.env['TEST_CPU_FILE'];
/** This thread's own statistics in a worker thread, the process's otherwise. */
const STAT = isMainThread ? '/proc/self/stat' : '/proc/thread-self/stat';
const TICKS_PER_SECOND = 100;

/**
 * [own, children] CPU seconds so far: utime + stime, cutime + cstime (fields 14 to 17 of proc(5)).
 * A thread's children are left at 0: the children a thread's statistics count are the whole
 * process's, and a unit thread runs in vitest's own process, which reaps the other projects'
 * workers (and with them all they started) when they end.
 */
function cpu(): [number, number] {
  const text = readFileSync(STAT, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const own = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  return [own, isMainThread ? (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND : 0];
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
