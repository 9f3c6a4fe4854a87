// Spawning the servers under test: ready line, RSS, and a stop that always ends them.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { statCpu } from '../../scripts/lib/proc-stat.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SANDBOX_BIN = fileURLToPath(new URL('../../bin/deposit-sandbox.js', import.meta.url));
export const BARE_SERVER = fileURLToPath(new URL('../bare-server.js', import.meta.url));
export const SEED = fileURLToPath(new URL('../seed.js', import.meta.url));
export const FAULTY_RECEIVERS = fileURLToPath(new URL('../faulty-receivers.js', import.meta.url));
export const SERVER_LIMITS = fileURLToPath(new URL('../server-limits.js', import.meta.url));
export const FUZZER = fileURLToPath(new URL('../fuzzer.js', import.meta.url));

const children = new Set();

/** This environment without DEPOSIT_SANDBOX_* or PORT, so the servers run exactly as configured here. */
const ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DEPOSIT_SANDBOX_') && name !== 'PORT'));

/** Kills every child still running (used on exit and on the watchdog). */
export function killAll() {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
}

/**
 * Spawns `node <script> ...args` and resolves once its first stdout line contains
 * "listening on <url>", with the url, the time from spawn to that line, and its RSS then.
 * `env` is added to the environment above.
 */
export function start(script, args, { timeoutMs = 30_000, env = {} } = {}) {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env: { ...ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text) => {
    stderr += text;
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`${script} printed no ready line within ${timeoutMs} ms`)), timeoutMs);
    const fail = (error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${error.message}${stderr ? `\n${stderr.trim()}` : ''}`));
    };
    child.once('exit', (code) => fail(new Error(`${script} exited with ${code} before it was ready`)));
    child.stdout.setEncoding('utf8');
    const onData = (text) => {
      out += text;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (!match) return;
      const readyMs = performance.now() - spawnedAt;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.once('exit', () => children.delete(child));
      child.stdout.off('data', onData);
      child.stdout.resume();
      resolve({ child, url: match[1], readyMs, rssMb: rssMb(child.pid), stderr: () => stderr, stop: (opts) => stop(child, opts) });
    };
    child.stdout.on('data', onData);
  });
}

/** SIGTERM, then SIGKILL if it has not exited after `graceMs`. Resolves with the exit code. */
export function stop(child, { graceMs = 60_000 } = {}) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    child.kill('SIGTERM');
  });
}

/** Runs a script to completion (bounded). */
export function run(script, args, { timeoutMs = 300_000 } = {}) {
  const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  child.stdout.on('data', (data) => (output += data));
  child.stderr.on('data', (data) => (output += data));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      if (code === 0) resolve(output);
      else reject(new Error(`${script} failed (${signal ?? `exit ${code}`}):\n${output.trim()}`));
    });
  });
}

/** Peak resident set size of a process so far in MB (Linux VmHWM; elsewhere the current RSS from ps). */
export function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmHWM:\s+(\d+)/.exec(status)?.[1];
    if (kb) return Number(kb) / 1024;
  } catch {
    // not Linux
  }
  try {
    return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) / 1024;
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU time (user + system) a process has used so far, in ms (Linux /proc; NaN elsewhere).
 * `pid` may also name one thread, as `<pid>/task/<tid>` (the main thread: the pid twice).
 */
export function cpuMs(pid) {
  const used = statCpu(`/proc/${pid}/stat`);
  return used === undefined ? Number.NaN : used.own * 1000;
}

/**
 * Waits until a process has stopped working (under 10 ms of CPU in 100 ms, e.g. after
 * finishing a compaction the load started), at most `maxMs`; resolves with the CPU ms
 * it used meanwhile.
 */
export async function settle(pid, maxMs = 15_000) {
  const start = cpuMs(pid);
  if (!Number.isFinite(start)) return 0;
  const deadline = Date.now() + maxMs;
  let last = start;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = cpuMs(pid);
    if (now - last < 10) return now - start;
    last = now;
  }
  return last - start;
}
