#!/usr/bin/env node
// Where the time of a vitest run went: the slowest files, from the JSON report that
// `npm test` writes (test-artifacts/vitest.json), or from the progress lines of a run that was
// stopped (test-artifacts/vitest-progress.ndjson, the sum of its finished tests per file); with
// --cpu, the files that used the most CPU, their own and their child processes'
// (test-artifacts/vitest-cpu.ndjson, written by test/cpu-per-file.ts); with --against
// <baseline's vitest-cpu.ndjson>, this run's files against another run's (an earlier commit's): the
// files both ran, which of them grew most, and the files one run had and the other not.
// node scripts/test-times.js [--cpu | --against <baseline>] [report] [how many, default 20]
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
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

/** A file's CPU: its own and its children's. */
const total = (row) => row.self + row.children;

/** [{ file, self, children }] from the lines of test/cpu-per-file.ts, most CPU first (a file's lines summed). */
export function costliestFiles(path) {
  const files = new Map();
  for (const line of readFileSync(path, 'utf8').split('\n').filter(Boolean)) {
    const { file, self, children } = JSON.parse(line);
    const sum = files.get(file) ?? { self: 0, children: 0 };
    files.set(file, { self: sum.self + self, children: sum.children + children });
  }
  return [...files].map(([file, cpu]) => ({ file, ...cpu })).sort((a, b) => total(b) - total(a));
}

export const formatCostliest = (rows) =>
  rows.map((r) => `  ${total(r).toFixed(1).padStart(7)} s  ${r.file}${r.children > 0 ? ` (${r.children.toFixed(1)} s of it in processes it started)` : ''}`).join('\n');

/**
 * Two runs' CPU per file ({ file, self, children } rows, as costliestFiles() gives them), a
 * baseline and the run now: the files both ran ({ file, base, now } seconds), a file that moved
 * to another folder matched by its name when that name is unique among the files left on each
 * side; and the files only one of them ran ({ file, seconds }). Each list most CPU first
 * (`common`: most grown first).
 */
export function compareCpu(baseRows, nowRows) {
  const base = new Map(baseRows.map((row) => [row.file, total(row)]));
  const now = new Map(nowRows.map((row) => [row.file, total(row)]));
  const common = [];
  for (const [file, seconds] of now) {
    if (!base.has(file)) continue;
    common.push({ file, base: base.get(file), now: seconds });
    base.delete(file);
    now.delete(file);
  }
  const byName = (files) => {
    const names = new Map();
    for (const file of files.keys()) names.set(basename(file), names.has(basename(file)) ? undefined : file);
    return names;
  };
  const baseNames = byName(base);
  for (const [name, file] of byName(now)) {
    const moved = baseNames.get(name);
    if (file === undefined || moved === undefined) continue;
    common.push({ file, base: base.get(moved), now: now.get(file) });
    base.delete(moved);
    now.delete(file);
  }
  const list = (files) => [...files].map(([file, seconds]) => ({ file, seconds })).sort((a, b) => b.seconds - a.seconds);
  return { common: common.sort((a, b) => b.now - b.base - (a.now - a.base)), added: list(now), removed: list(base) };
}

const sum = (values) => values.reduce((a, b) => a + b, 0);
const seconds = (value) => `${value.toFixed(1)} s`;

/** compareCpu()'s result as text, each list cut to its first `count` files. */
export function formatComparison({ common, added, removed }, count) {
  const base = sum(common.map((row) => row.base));
  const now = sum(common.map((row) => row.now));
  const ratio = base > 0 ? ` (${(now / base).toFixed(2)} x)` : '';
  const lines = [`files both runs ran (${common.length}): ${seconds(base)} then, ${seconds(now)} now${ratio}; most grown:`];
  for (const row of common.slice(0, count)) {
    const grew = row.now - row.base;
    lines.push(`  ${`${grew >= 0 ? '+' : ''}${grew.toFixed(1)}`.padStart(7)} s  ${row.file} (${seconds(row.base)} -> ${seconds(row.now)})`);
  }
  for (const [what, rows] of [
    ['files only this run ran', added],
    ['files only the baseline ran', removed],
  ]) {
    lines.push(`${what} (${rows.length}): ${seconds(sum(rows.map((row) => row.seconds)))}${rows.length > 0 ? ':' : ''}`);
    for (const row of rows.slice(0, count)) lines.push(`  ${row.seconds.toFixed(1).padStart(7)} s  ${row.file}`);
  }
  return lines.join('\n');
}

/**
 * The command line: `--cpu`, `--against <baseline>` (which implies --cpu), then the report and how
 * many files to list. Throws, saying what is missing, when --against names no file.
 */
export function readArgs(argv) {
  const args = [...argv];
  const flag = (name, takes) => {
    const at = args.indexOf(name);
    return at === -1 ? undefined : args.splice(at, takes ? 2 : 1);
  };
  const cpu = flag('--cpu', false) !== undefined;
  const against = flag('--against', true);
  if (against !== undefined && against[1] === undefined) throw new Error("--against needs a file: the baseline run's vitest-cpu.ndjson (npm test writes one to test-artifacts/)");
  return { cpu: cpu || against !== undefined, against: against?.[1], report: args[0], count: Number(args[1] ?? 20) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let args;
  try {
    args = readArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`test-times: ${error.message}\n`);
    process.exit(2);
  }
  const { cpu, against, report, count } = args;
  const cpuFile = report ?? join(ARTIFACTS, 'vitest-cpu.ndjson');
  for (const file of against !== undefined ? [against, cpuFile] : cpu ? [cpuFile] : []) {
    if (existsSync(file)) continue;
    process.stderr.write(`test-times: ${file} does not exist. npm test writes test-artifacts/vitest-cpu.ndjson in the checkout it runs in.\n`);
    process.exit(2);
  }
  if (against !== undefined) {
    process.stdout.write(`${formatComparison(compareCpu(costliestFiles(against), costliestFiles(cpuFile)), count)}\n`);
  } else if (cpu) {
    process.stdout.write(`${formatCostliest(costliestFiles(cpuFile).slice(0, count))}\n`);
  } else {
    const json = join(ARTIFACTS, 'vitest.json');
    const path = report ?? (existsSync(json) ? json : join(ARTIFACTS, 'vitest-progress.ndjson'));
    process.stdout.write(`${formatSlowest(slowestFiles(path).slice(0, count))}\n`);
  }
}
