/**
 * scripts/test-summary.js, the last line of .ci/run: it must count every suite's results and
 * fail a run whose suites crashed, failed or tested nothing. Runs the script as CI does.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { folderIn, it } from './temp-folder.js';

const SCRIPT = fileURLToPath(new URL('../scripts/test-summary.js', import.meta.url));
/** The summary of a new folder inside `folder` holding `files`. */
function summary(folder: string, files: Record<string, string>, ...args: string[]) {
  const dir = folderIn(folder);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const run = spawnSync(process.execPath, [SCRIPT, '--dir', dir, ...args], { encoding: 'utf8' });
  return { code: run.status, lines: run.stdout.trimEnd().split('\n') };
}

const VITEST = JSON.stringify({ numPassedTests: 10, numFailedTests: 1, numPendingTests: 2, numTodoTests: 1, testResults: [] });
const PYTEST =
  '<?xml version="1.0"?><testsuites><testsuite name="pytest" tests="3"><testcase name="a"/><testcase name="b"><skipped message="no"/></testcase><testcase name="c"/></testsuite></testsuites>';
// PHPUnit nests suites; an error counts as a failure.
const PHPUNIT =
  '<?xml version="1.0"?><testsuites><testsuite name="all"><testsuite name="Flow"><testcase name="t1"/><testcase name="t2"><error type="E">boom</error></testcase></testsuite></testsuite></testsuites>';
const GO = [
  { Action: 'run', Test: 'TestA' },
  { Action: 'pass', Test: 'TestA' },
  { Action: 'pass', Test: 'TestA/sub' },
  { Action: 'skip', Test: 'TestB' },
  { Action: 'fail', Test: 'TestC' },
  { Action: 'fail' },
]
  .map((event) => JSON.stringify({ Package: 'example.com/deposit', ...event }))
  .join('\n');

describe('scripts/test-summary.js', () => {
  it('sums vitest JSON, JUnit XML and go test -json per suite and ends with the total line', ({ folder }) => {
    const result = summary(folder, { 'vitest.json': VITEST, 'pytest.xml': PYTEST, 'phpunit.xml': PHPUNIT, 'go-test.jsonl': GO });
    expect(result.lines).toEqual([
      '  go-test.jsonl: 1 passed, 1 failed, 1 skipped',
      '  phpunit.xml: 1 passed, 1 failed',
      '  pytest.xml: 2 passed, 0 failed, 1 skipped',
      '  vitest.json: 10 passed, 1 failed, 3 skipped',
      '14 passed, 3 failed, 5 skipped',
    ]);
    expect(result.code).toBe(1);
  });

  it('exits 0 only when nothing failed', ({ folder }) => {
    const result = summary(folder, { 'pytest.xml': PYTEST });
    expect(result.lines.at(-1)).toBe('2 passed, 0 failed, 1 skipped');
    expect(result.code).toBe(0);
  });

  it('counts a failed command with no failed test, a missing result, an unreadable one and a run that tested nothing', ({ folder }) => {
    const exited = summary(folder, { 'pytest.xml': PYTEST }, '--exit-status', '2');
    expect(exited.lines.slice(-2)).toEqual(['  failed: the test command exited 2 with no failed test', '2 passed, 1 failed, 1 skipped']);
    expect(exited.code).toBe(1);

    const none = summary(folder, {}, '--exit-status', '1');
    expect(none.lines.at(-1)).toBe('0 passed, 1 failed');
    expect(none.code).toBe(1);

    const unreadable = summary(folder, { 'vitest.json': '{"numPassed' });
    expect(unreadable.lines[0]).toMatch(/^ {2}vitest\.json: 0 passed, 1 failed \(unreadable: /);
    expect(unreadable.code).toBe(1);

    const skippedOnly = '<testsuites><testsuite><testcase name="x"><skipped/></testcase></testsuite></testsuites>';
    const nothing = summary(folder, { 'go-test.xml': skippedOnly }, '--require-tests');
    expect(nothing.lines.slice(-2)).toEqual(['  failed: no test passed: the run tested nothing', '0 passed, 1 failed, 1 skipped']);
    expect(nothing.code).toBe(1);
  });

  it('counts a package that did not build as a failure', ({ folder }) => {
    const broken = [{ Action: 'output', Output: 'syntax error' }, { Action: 'fail' }].map((e) => JSON.stringify({ Package: 'p', ...e })).join('\n');
    expect(summary(folder, { 'go-test.jsonl': broken }).lines.at(-1)).toBe('0 passed, 1 failed');
  });
});
