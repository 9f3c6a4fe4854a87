/**
 * scripts/test-times.js: the slowest files of a vitest run, from its JSON report or from the
 * progress lines of a run that was stopped (the sum of its finished tests per file); and the
 * files that used the most CPU, from the lines test/cpu-per-file.ts writes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { it } from '../temp-folder.js';
// @ts-expect-error: a plain JavaScript module of the scripts, without types
import { costliestFiles, formatCostliest, formatSlowest, slowestFiles } from '../../scripts/test-times.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

it('lists the files of a JSON report, slowest first, with their tests', ({ folder: dir }) => {
  const report = join(dir, 'vitest.json');
  const result = (name: string, startTime: number, endTime: number, tests: number) => ({ name: join(ROOT, name), startTime, endTime, assertionResults: Array.from({ length: tests }, () => ({})) });
  writeFileSync(report, JSON.stringify({ testResults: [result('test/a.test.ts', 1_000, 1_500, 2), result('test/b.test.ts', 1_000, 4_000, 1)] }));
  expect(slowestFiles(report)).toEqual([
    { file: 'test/b.test.ts', tests: 1, seconds: 3 },
    { file: 'test/a.test.ts', tests: 2, seconds: 0.5 },
  ]);
  expect(formatSlowest(slowestFiles(report))).toBe('      3.0 s  test/b.test.ts (1 tests)\n      0.5 s  test/a.test.ts (2 tests)');
});

it('adds up the finished tests of a progress file', ({ folder: dir }) => {
  const progress = join(dir, 'vitest-progress.ndjson');
  const lines = [
    { files: ['a.test.ts', 'b.test.ts'] },
    { file: 'a.test.ts', name: 'one', state: 'passed', ms: 200 },
    { file: 'a.test.ts', name: 'two', state: 'failed', ms: 300 },
    { file: 'a.test.ts', done: true },
  ];
  writeFileSync(progress, lines.map((line) => JSON.stringify(line)).join('\n'));
  expect(slowestFiles(progress)).toEqual([{ file: 'a.test.ts', tests: 2, seconds: 0.5 }]);
});

it("lists the files that used the most CPU, their own and their children's summed, a file written twice added up", ({ folder: dir }) => {
  const lines = join(dir, 'vitest-cpu.ndjson');
  const rows = [
    { file: 'test/in-process/a.test.ts', self: 1.5, children: 0 },
    { file: 'test/b.test.ts', self: 0.25, children: 3 },
    { file: 'test/in-process/a.test.ts', self: 0.5, children: 0 },
  ];
  writeFileSync(lines, `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`);
  expect(costliestFiles(lines)).toEqual([
    { file: 'test/b.test.ts', self: 0.25, children: 3 },
    { file: 'test/in-process/a.test.ts', self: 2, children: 0 },
  ]);
  expect(formatCostliest(costliestFiles(lines))).toBe('      3.3 s  test/b.test.ts (3.0 s of it in processes it started)\n      2.0 s  test/in-process/a.test.ts');
});
