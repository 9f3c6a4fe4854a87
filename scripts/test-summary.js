#!/usr/bin/env node
// Sums the machine-readable results every test suite wrote under test-artifacts/ and prints
// one line per suite, then the total as the last line: "N passed, N failed[, N skipped]".
//   *.json   vitest's JSON reporter (the main suite, the container test)
//   *.xml    JUnit XML (pytest --junitxml, phpunit --log-junit, and suites that could not run)
//   *.jsonl  go test -json
// node scripts/test-summary.js [--dir DIR] [--exit-status N] [--require-tests]
//   --dir DIR         read DIR instead of test-artifacts/
//   --exit-status N   the test command's exit status: non-zero with no failed test counts as one failure
//   --require-tests   no passed test at all counts as one failure (a run that tested nothing)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';

export const ARTIFACTS = fileURLToPath(new URL('../test-artifacts/', import.meta.url));

const vitest = (text) => {
  const r = JSON.parse(text);
  // A file that failed to load has no failed test but a failed suite.
  const broken = r.testResults?.filter((file) => file.status === 'failed' && file.assertionResults.every((t) => t.status !== 'failed')).length ?? 0;
  return { passed: r.numPassedTests, failed: r.numFailedTests + broken, skipped: r.numPendingTests + r.numTodoTests };
};

const junit = (text) => {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testsuite' || name === 'testcase' });
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const walk = (node) => {
    if (node === null || typeof node !== 'object') return;
    for (const test of node.testcase ?? []) {
      if (test.failure !== undefined || test.error !== undefined) counts.failed++;
      else if (test.skipped !== undefined) counts.skipped++;
      else counts.passed++;
    }
    for (const suite of node.testsuite ?? []) walk(suite);
    if (node.testsuites) walk(node.testsuites);
  };
  walk(parser.parse(text));
  return counts;
};

const goTest = (text) => {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  let packageFailed = false;
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    const event = JSON.parse(line);
    // Top-level tests only: subtests are part of their test.
    if (event.Test === undefined) packageFailed ||= event.Action === 'fail';
    else if (!event.Test.includes('/')) {
      if (event.Action === 'pass') counts.passed++;
      else if (event.Action === 'fail') counts.failed++;
      else if (event.Action === 'skip') counts.skipped++;
    }
  }
  // A package that did not build fails with no failed test.
  if (packageFailed && counts.failed === 0) counts.failed = 1;
  return counts;
};

/** One entry per result file: { suite, passed, failed, skipped }, in file name order. */
export function readResults(dir = ARTIFACTS) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const read = name.endsWith('.jsonl') ? goTest : name.endsWith('.json') ? vitest : name.endsWith('.xml') ? junit : undefined;
      if (!read) return [];
      try {
        return [{ suite: name, ...read(readFileSync(join(dir, name), 'utf8')) }];
      } catch (error) {
        return [{ suite: name, passed: 0, failed: 1, skipped: 0, note: `unreadable: ${error.message}` }];
      }
    });
}

export const formatCounts = ({ passed, failed, skipped }) => `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;

/** The per-suite lines and the total line; `extra` adds failures that no result file shows. */
export function summarize(results, extra = []) {
  const total = { passed: 0, failed: extra.length, skipped: 0 };
  for (const r of results) {
    total.passed += r.passed;
    total.failed += r.failed;
    total.skipped += r.skipped;
  }
  const lines = [...results.map((r) => `  ${r.suite}: ${formatCounts(r)}${r.note ? ` (${r.note})` : ''}`), ...extra.map((why) => `  failed: ${why}`), formatCounts(total)];
  return { total, lines };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--exit-status');
  const status = at === -1 ? 0 : Number(args[at + 1]);
  const dirAt = args.indexOf('--dir');
  const results = readResults(dirAt === -1 ? ARTIFACTS : args[dirAt + 1]);
  const sum = (key) => results.reduce((n, r) => n + r[key], 0);
  const extra = [];
  if (results.length === 0) extra.push('no suite wrote a result under test-artifacts/');
  else if (status !== 0 && sum('failed') === 0) extra.push(`the test command exited ${status} with no failed test`);
  if (args.includes('--require-tests') && results.length > 0 && sum('passed') === 0) extra.push('no test passed: the run tested nothing');
  const { total, lines } = summarize(results, extra);
  process.stdout.write(`${lines.join('\n')}\n`);
  process.exitCode = total.failed > 0 || status !== 0 ? 1 : 0;
}
