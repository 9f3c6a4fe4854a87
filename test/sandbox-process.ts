/**
 * A sandbox as a real process (the build in dist/, via bin/), for tests of signals,
 * connections and memory. Every process is killed by `killAll()` (call it in afterEach).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/**
 * Spawns `deposit-sandbox <args>` without waiting for anything, in this environment minus
 * DEPOSIT_SANDBOX_* and PORT (so a developer's settings do not change what a test runs),
 * plus `extraEnv`. `killAll()` ends it.
 */
export function spawnProcess(args: string[], extraEnv: Record<string, string> = {}): Pick<SandboxProcess, 'child' | 'stdout' | 'stderr' | 'exited'> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DEPOSIT_SANDBOX_') && name !== 'PORT'));
  const env = { ...clean, ...extraEnv };
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: 'pipe' });
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
