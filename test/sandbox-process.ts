/**
 * A sandbox as a real process (the build in dist/, via bin/), for tests of signals,
 * connections and memory, and the CLI's other commands run to completion (runCli). Every
 * process is killed by `killAll()` (call it in afterEach), except one started for several
 * tests with startSharedProcess(), which stopProcess() ends (call it in afterAll).
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO } from './merchants.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'deposit-sandbox.js');
const READY = /^deposit-sandbox listening on (http:\/\/127\.0\.0\.1:(\d+))$/m;

export interface SandboxProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  port: number;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

const children: ChildProcessWithoutNullStreams[] = [];
const dirs: string[] = [];

export function killAll(): void {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'deposit-sandbox-proc-'));
  dirs.push(dir);
  return dir;
}

/** This environment minus DEPOSIT_SANDBOX_* and PORT (so a developer's settings do not change what a test runs), plus `extra`. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DEPOSIT_SANDBOX_') && name !== 'PORT'));
  return { ...clean, ...extra };
}

/**
 * cleanEnv() without proxies, for the shell blocks of the docs run as they are: curl must reach
 * 127.0.0.1 directly, whatever proxy the machine sets.
 */
export function shellEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(cleanEnv()).filter(([name]) => !/^(https?|all|no)_proxy$/i.test(name)));
  return { ...env, NO_PROXY: '127.0.0.1', no_proxy: '127.0.0.1', ...extra };
}

/**
 * Spawns `deposit-sandbox <args>` without waiting for anything, in the cleanEnv() environment
 * plus `extraEnv`. `killAll()` ends it.
 */
export function spawnProcess(args: string[], extraEnv: Record<string, string> = {}): Pick<SandboxProcess, 'child' | 'stdout' | 'stderr' | 'exited'> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: cleanEnv(extraEnv), stdio: 'pipe' });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Starts `deposit-sandbox <args>` and resolves once its ready line is printed. */
export async function startProcess(args: string[], extraEnv: Record<string, string> = {}): Promise<SandboxProcess> {
  const { child, stdout, stderr, exited } = spawnProcess(args, extraEnv);
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const check = () => {
      const found = READY.exec(stdout());
      if (found) resolve(found);
    };
    child.stdout.on('data', check);
    void exited.then((code) => reject(new Error(`deposit-sandbox exited (${code}) before its ready line:\n${stdout()}\n${stderr()}`)));
  });
  return { child, url: match[1]!, port: Number(match[2]), stdout, stderr, exited };
}

/**
 * Starts `deposit-sandbox <args>` for several tests (call it in beforeAll), which only talk to it
 * and so each use their own orders or workspace (/w/<name>) and stay independent of each other's
 * order. `killAll()` leaves it running; end it with `stopProcess()` in afterAll.
 */
export async function startSharedProcess(args: string[], extraEnv: Record<string, string> = {}): Promise<SandboxProcess> {
  const proc = await startProcess(args, extraEnv);
  const index = children.indexOf(proc.child);
  if (index >= 0) children.splice(index, 1);
  return proc;
}

/** Sends `signal` (SIGTERM) unless the process has ended, and resolves with its exit code. */
export function stopProcess(proc: Pick<SandboxProcess, 'child' | 'exited'>, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill(signal);
  return proc.exited;
}

/** Runs `deposit-sandbox <args>` to completion (bounded), in the cleanEnv() environment plus `extraEnv`, with `input` on its standard input if given. */
export function runCli(args: string[], extraEnv: Record<string, string> = {}, input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // A bound for a hang, under the test's own (a CLI run has taken over a minute on a loaded machine).
    const child = execFile(process.execPath, [BIN, ...args], { cwd: ROOT, env: cleanEnv(extraEnv), timeout: 170_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr: error?.killed ? `${stderr}\n(killed: still running after 170 s)` : stderr });
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}

/**
 * The status of GET for each trade (of the demo merchant), asked of a sandbox started in this
 * process on `data`: what a stopped process saved, read back without starting another process.
 */
export async function savedStatuses(data: string, ids: string[]): Promise<number[]> {
  // Imported here: the other helpers run the build in dist/ and need none of the app.
  const { startSandbox } = await import('../src/programmatic/start-sandbox.js');
  const again = await startSandbox({ data });
  try {
    return await Promise.all(ids.map(async (id) => (await fetch(`${again.url}/api/v1/trades/${DEMO.id}/${id}`, { headers: { 'X-Token': DEMO.token } })).status));
  } finally {
    await again.close();
  }
}

/** Resolves once `read()` contains `text` (checked on every output chunk); rejects if the process ends first. */
export function outputContains(proc: SandboxProcess, text: string, read: () => string = proc.stdout): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (read().includes(text)) {
        proc.child.stdout.off('data', check);
        proc.child.stderr.off('data', check);
        resolve();
      }
    };
    proc.child.stdout.on('data', check);
    proc.child.stderr.on('data', check);
    void proc.exited.then(() => (read().includes(text) ? resolve() : reject(new Error(`exited without printing ${JSON.stringify(text)}:\n${proc.stdout()}\n${proc.stderr()}`))));
    check();
  });
}
