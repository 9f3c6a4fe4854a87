#!/usr/bin/env node
// Where the time of a vitest run went: the slowest files, from the JSON report that
// `npm test` writes (test-artifacts/vitest.json), or from the progress lines of a run that was
// stopped (test-artifacts/vitest-progress.ndjson, the sum of its finished tests per file); with
// --cpu, the files that used the most CPU, their own and their child processes'
// (test-artifacts/vitest-cpu.ndjson, written by test/cpu-per-file.ts).
// node scripts/test-times.js [--cpu] [report] [how many, default 20]
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARTIFACTS, ROOT } from './lib/suites.js';

/** [{ file, tests, seconds }], slowest first. */
export function slowestFiles(path) {
  const text = readFileSync(path, 'utf8');
  const files = new Map();
  if (path.endsWith('.json')) {
    for (const result of JSON.parse(text).testResults ?? []) {
      files.set(relative(ROOT, result.name), { tests: result.assertionResults.length, ms: result.endTime - result.startTime });
    }
  } else {
    for (const line of text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))) {
      if (line.name === undefined) continue;
      const file = files.get(line.file) ?? { tests: 0, ms: 0 };
      files.set(line.file, { tests: file.tests + 1, ms: file.ms + line.ms });
    }
  }
  return [...files].map(([file, { tests, ms }]) => ({ file, tests, seconds: ms / 1000 })).sort((a, b) => b.seconds - a.seconds);
}

export const formatSlowest = (rows) => rows.map((r) => `  ${r.seconds.toFixed(1).padStart(7)} s  ${r.file} (${r.tests} tests)`).join('\n');

/** [{ file, self, children }] from the lines of test/cpu-per-file.ts, most CPU first (a file's lines summed). */
export function costliestFiles(path) {
  const files = new Map();
  for (const line of readFileSync(path, 'utf8').split('\n').filter(Boolean)) {
    const { file, self, children } = JSON.parse(line);
    const sum = files.get(file) ?? { self: 0, children: 0 };
    files.set(file, { self: sum.self + self, children: sum.children + children });
  }
  return [...files].map(([file, cpu]) => ({ file, ...cpu })).sort((a, b) => b.self + b.children - (a.self + a.children));
}

export const formatCostliest = (rows) =>
  rows.map((r) => `  ${(r.self + r.children).toFixed(1).padStart(7)} s  ${r.file}${r.children > 0 ? ` (${r.children.toFixed(1)} s of it in processes it started)` : ''}`).join('\n');

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const cpu = args[0] === '--cpu';
  if (cpu) args.shift();
  const count = Number(args[1] ?? 20);
  if (cpu) {
    process.stdout.write(`${formatCostliest(costliestFiles(args[0] ?? join(ARTIFACTS, 'vitest-cpu.ndjson')).slice(0, count))}\n`);
  } else {
    const json = join(ARTIFACTS, 'vitest.json');
    const path = args[0] ?? (existsSync(json) ? json : join(ARTIFACTS, 'vitest-progress.ndjson'));
    process.stdout.write(`${formatSlowest(slowestFiles(path).slice(0, count))}\n`);
  }
}
