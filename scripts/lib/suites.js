// Running test suites as child processes and recording, in JUnit XML under test-artifacts/,
// the suites that were skipped or could not report for themselves.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readResults } from '../test-summary.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const ARTIFACTS = join(ROOT, 'test-artifacts');
export const artifact = (name) => join(ARTIFACTS, name);
export const CI = process.env.CI === 'true';

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
export function run(command, args, { cwd = ROOT, env = process.env, timeoutMs = 600_000, stdoutFile } = {}) {
  const out = stdoutFile ? openSync(stdoutFile, 'w') : 'inherit';
  try {
    const result = spawnSync(command, args, { cwd, env, stdio: ['ignore', out, 'inherit'], timeout: timeoutMs, killSignal: 'SIGKILL' });
    if (result.error?.code === 'ETIMEDOUT') return { status: 1, why: `${command} ${args.join(' ')} did not finish within ${timeoutMs / 1000} s and was stopped` };
    if (result.error) return { status: 1, why: `${command} could not be started: ${result.error.message}` };
    if (result.status !== 0) return { status: result.status ?? 1, why: `${command} ${args.join(' ')} exited ${result.status ?? result.signal}` };
    return { status: 0 };
  } finally {
    if (typeof out === 'number') closeSync(out);
  }
}

/** True when `command args` runs and exits 0 (a toolchain probe; output hidden). */
export function works(command, args) {
  const result = spawnSync(command, args, { stdio: 'ignore', timeout: 30_000 });
  return !result.error && result.status === 0;
}

/**
 * After a suite ran: when it failed but its result file (`file`) is missing or shows no failed
 * test (it crashed, or did not build), writes `note` as a failure naming `why`, so the total
 * counts it.
 */
export function ensureReported(file, note, suite, outcome) {
  if (outcome.status === 0) return;
  const own = existsSync(artifact(file)) ? readResults().find((r) => r.suite === file) : undefined;
  if (!own || own.failed === 0) writeNote(note, suite, 'failure', outcome.why);
}
