// Running test suites as child processes and recording, in JUnit XML under test-artifacts/,
// the suites that were skipped or could not report for themselves.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readResults } from '../test-summary.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const ARTIFACTS = join(ROOT, 'test-artifacts');
export const artifact = (name) => join(ARTIFACTS, name);
export const CI = process.env.CI === 'true';
/**
 * How long one suite may run before it is stopped: far past a slow machine's time (the whole of
 * `npm test` takes minutes), so it stops a hung suite, never a slow one.
 */
export const SUITE_BOUND_MS = 40 * 60_000;

const escapeXml = (text) => text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]);

/** Writes test-artifacts/<file> as one JUnit test case for `suite`, skipped or failed with `message`. */
export function writeNote(file, suite, kind, message) {
  mkdirSync(ARTIFACTS, { recursive: true });
  const tag = kind === 'skipped' ? `<skipped message="${escapeXml(message)}"/>` : `<failure message="${escapeXml(message)}"/>`;
  writeFileSync(
    artifact(file),
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites><testsuite name="${escapeXml(suite)}" tests="1"><testcase name="${escapeXml(suite)}">${tag}</testcase></testsuite></testsuites>\n`,
  );
}

/**
 * Runs a command to completion with the output shown (or written to `stdoutFile`), bounded by
 * `timeoutMs`. Resolves with { status, why }: `why` says what went wrong when status is not 0.
 */
export function run(command, args, { cwd = ROOT, env = process.env, timeoutMs = SUITE_BOUND_MS, stdoutFile } = {}) {
  const out = stdoutFile ? openSync(stdoutFile, 'w') : 'inherit';
  try {
    const result = spawnSync(command, args, { cwd, env, stdio: ['ignore', out, 'inherit'], timeout: timeoutMs, killSignal: 'SIGKILL' });
    if (result.error?.code === 'ETIMEDOUT') return { status: 1, why: `${command} ${args.join(' ')} did not finish within ${timeoutMs / 60_000} min and was stopped` };
    if (result.error) return { status: 1, why: `${command} could not be started: ${result.error.message}` };
    if (result.status !== 0) return { status: result.status ?? 1, why: `${command} ${args.join(' ')} exited ${result.status ?? result.signal}` };
    return { status: 0 };
  } finally {
    if (typeof out === 'number') closeSync(out);
  }
}

/** How long a toolchain probe may take (a Python import on a busy 2-core machine has taken seconds). */
export const PROBE_MS = 30_000;

/**
 * Runs a toolchain probe, `command args` (output hidden). Undefined when it exits 0; otherwise
 * `{ missing, why }`: `missing` is false when the probe ran out of time, since a slow machine
 * says nothing about whether the toolchain is installed, and `why` says what happened.
 */
export function probe(command, args, timeoutMs = PROBE_MS) {
  const result = spawnSync(command, args, { stdio: 'ignore', timeout: timeoutMs });
  const shown = `\`${[command, ...args].join(' ')}\``;
  if (!result.error && result.status === 0) return undefined;
  if (result.error?.code === 'ETIMEDOUT') return { missing: false, why: `${shown} did not finish within ${timeoutMs / 1000} s (a busy machine?)` };
  if (result.error?.code === 'ENOENT') return { missing: true, why: `${command} is not installed` };
  if (result.error) return { missing: true, why: `${shown} could not run: ${result.error.message}` };
  return { missing: true, why: `${shown} exited with ${result.status ?? result.signal}` };
}

/** True when `command args` runs and exits 0 (see probe). */
export function works(command, args) {
  return probe(command, args) === undefined;
}

/**
 * Why a suite cannot run for want of `what` (probed with `command args`), or undefined when the
 * probe works: "<what> is missing (<install>)", or, when the probe ran out of time, that it
 * could not be told (never "missing" for a toolchain that is only slow to answer).
 */
export function needs(what, install, command, args, timeoutMs = PROBE_MS) {
  const failed = probe(command, args, timeoutMs);
  if (!failed) return undefined;
  return failed.missing ? `${what} is missing (${install}): ${failed.why}` : `could not tell whether ${what} is installed: ${failed.why}`;
}

/**
 * After a suite ran: when it failed but its result file (`file`) is missing or shows no failed
 * test (it crashed, or did not build), writes `note` as a failure naming `why`, so the total
 * counts it. When `progress` (the lines of scripts/lib/progress-reporter.js) is there and the
 * result file is not (the suite was stopped), `note` lists every test that finished, and each
 * file that did not finish as a failure.
 */
export function ensureReported(file, note, suite, outcome, progress) {
  if (outcome.status === 0) return;
  const own = existsSync(artifact(file)) ? readResults().find((r) => r.suite === file) : undefined;
  if (!own && progress && existsSync(progress)) writeFileSync(artifact(note), progressJunit(readFileSync(progress, 'utf8'), suite, outcome.why));
  else if (!own || own.failed === 0) writeNote(note, suite, 'failure', outcome.why);
}

/** JUnit XML of a progress file: each finished test, then each unfinished file failed with `why`. */
export function progressJunit(text, suite, why) {
  const lines = text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const files = lines.find((line) => line.files)?.files ?? [];
  const done = new Set(lines.filter((line) => line.done && !line.error).map((line) => line.file));
  const cases = lines
    .filter((line) => line.name !== undefined)
    .map((t) => {
      const body = t.state === 'failed' ? `<failure message="${escapeXml(t.error ?? 'failed')}"/>` : t.state === 'skipped' ? '<skipped/>' : '';
      return `<testcase classname="${escapeXml(t.file)}" name="${escapeXml(t.name)}" time="${t.ms / 1000}">${body}</testcase>`;
    });
  for (const line of lines.filter((l) => l.done && l.error)) {
    cases.push(`<testcase classname="${escapeXml(line.file)}" name="${escapeXml(line.file)}"><failure message="${escapeXml(line.error)}"/></testcase>`);
  }
  for (const name of files.filter((f) => !done.has(f) && !lines.some((l) => l.done && l.file === f))) {
    cases.push(`<testcase classname="${escapeXml(name)}" name="${escapeXml(name)} (did not finish)"><failure message="${escapeXml(why)}"/></testcase>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites><testsuite name="${escapeXml(suite)}" tests="${cases.length}">\n${cases.join('\n')}\n</testsuite></testsuites>\n`;
}
