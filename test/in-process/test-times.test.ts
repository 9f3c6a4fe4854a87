/**
 * scripts/test-times.js: the slowest files of a vitest run, from its JSON report or from the
 * progress lines of a run that was stopped (the sum of its finished tests per file); and the
 * files that used the most CPU, from the lines test/cpu-per-file.ts writes; and two runs' CPU per
 * file side by side.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { it } from '../temp-folder.js';
// @ts-expect-error: a plain JavaScript module of the scripts, without types
import { compareCpu, costliestFiles, formatComparison, formatCostliest, formatSlowest, readArgs, slowestFiles } from '../../scripts/test-times.js';

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

it('sets two runs side by side: the files both ran (a moved file by its name), most grown first, and those only one ran', () => {
  const base = [
    { file: 'test/kept.test.ts', self: 1, children: 2 },
    { file: 'test/moved.test.ts', self: 2, children: 0 },
    { file: 'test/gone.test.ts', self: 0.5, children: 0 },
    // A name two files share on one side says nothing about which one moved: not matched.
    { file: 'test/a/twin.test.ts', self: 1, children: 0 },
  ];
  const now = [
    { file: 'test/kept.test.ts', self: 1, children: 1 },
    { file: 'test/in-process/moved.test.ts', self: 3, children: 0 },
    { file: 'test/new.test.ts', self: 0.25, children: 4 },
    { file: 'test/b/twin.test.ts', self: 1, children: 0 },
    { file: 'test/c/twin.test.ts', self: 1, children: 0 },
  ];
  const comparison = compareCpu(base, now);
  expect(comparison).toEqual({
    common: [
      { file: 'test/in-process/moved.test.ts', base: 2, now: 3 },
      { file: 'test/kept.test.ts', base: 3, now: 2 },
    ],
    added: [
      { file: 'test/new.test.ts', seconds: 4.25 },
      { file: 'test/b/twin.test.ts', seconds: 1 },
      { file: 'test/c/twin.test.ts', seconds: 1 },
    ],
    removed: [
      { file: 'test/a/twin.test.ts', seconds: 1 },
      { file: 'test/gone.test.ts', seconds: 0.5 },
    ],
  });
  expect(formatComparison(comparison, 1)).toBe(
    [
      'files both runs ran (2): 5.0 s then, 5.0 s now (1.00 x); most grown:',
      '     +1.0 s  test/in-process/moved.test.ts (2.0 s -> 3.0 s)',
      'files only this run ran (3): 6.3 s:',
      '      4.3 s  test/new.test.ts',
      'files only the baseline ran (2): 1.5 s:',
      '      1.0 s  test/a/twin.test.ts',
    ].join('\n'),
  );
});

it('reads --cpu and --against <baseline> wherever they are, and says what --against lacks', () => {
  expect(readArgs([])).toEqual({ cpu: false, against: undefined, report: undefined, count: 20 });
  expect(readArgs(['--cpu', 'run.ndjson', '5'])).toEqual({ cpu: true, against: undefined, report: 'run.ndjson', count: 5 });
  expect(readArgs(['run.ndjson', '--against', 'base.ndjson', '3'])).toEqual({ cpu: true, against: 'base.ndjson', report: 'run.ndjson', count: 3 });
  expect(() => readArgs(['--against'])).toThrow("--against needs a file: the baseline run's vitest-cpu.ndjson");
});
