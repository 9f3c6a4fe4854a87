#!/usr/bin/env node
// Where the time of a vitest run went: the slowest files, from the JSON report that
// `npm test` writes (test-artifacts/vitest.json), or from the progress lines of a run that was
// stopped (test-artifacts/vitest-progress.ndjson, the sum of its finished tests per file).
// node scripts/test-times.js [report] [how many, default 20]
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const json = join(ARTIFACTS, 'vitest.json');
  const path = process.argv[2] ?? (existsSync(json) ? json : join(ARTIFACTS, 'vitest-progress.ndjson'));
  const count = Number(process.argv[3] ?? 20);
  process.stdout.write(`${formatSlowest(slowestFiles(path).slice(0, count))}\n`);
}
