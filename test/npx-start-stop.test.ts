/**
 * The README's start command, `npx deposit-sandbox` typed in the clone, as real processes: the
 * first start does not build the package again (npx links the folder into its own cache and runs
 * its `prepare`, which finds dist/ current), and SIGTERM to the npx process, Ctrl-C (SIGINT to the
 * terminal's process group) and a closed terminal (SIGHUP to the group) each end the sandbox,
 * close its port and release the data-folder lock. Runs the build in dist/.
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect } from 'vitest';
import { it, test } from './temp-folder.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
/** The file's temporary folder (the fixture removes it after the file's tests). */
let dir: string;
/** An npx cache of this file's own: the first start below is npx's first start in this clone. */
let npxCache: string;
test.beforeAll(({ fileFolder }) => {
  dir = fileFolder;
  npxCache = join(dir, 'npm-cache');
});

interface Started {
  npx: ChildProcessWithoutNullStreams;
  /** The sandbox's own process (node), from the ready file. */
  pid: number;
  port: number;
  data: string;
  readyFile: string;
  output: () => string;
  exited: Promise<number | null>;
}

const started: Started[] = [];
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

afterEach(() => {
  for (const { npx: child, pid } of started.splice(0)) {
    if (alive(pid)) process.kill(pid, 'SIGKILL');
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});

beforeAll(() => {
  // npx would build a stale dist/ in the middle of the suite: ask for the build instead.
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'prepare.js'), '--check'], { cwd: ROOT, stdio: 'pipe' });
});

let runs = 0;
/** `npx deposit-sandbox --port 0 --data <fresh> --ready-file <f>` in the clone, as its own process group (a terminal's job). */
async function startNpx(): Promise<Started> {
  runs++;
  const data = join(dir, `data-${runs}`);
  const readyFile = join(dir, `ready-${runs}.json`);
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DEPOSIT_SANDBOX_') && name !== 'PORT' && !name.startsWith('npm_')));
  const child = spawn(npx, ['deposit-sandbox', '--port', '0', '--data', data, '--ready-file', readyFile], {
    cwd: ROOT,
    env: { ...env, npm_config_cache: npxCache, npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false' },
    stdio: 'pipe',
    detached: true,
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (out.includes('deposit-sandbox listening on')) resolve();
    };
    child.stdout.on('data', check);
    void exited.then((code) => reject(new Error(`npx exited (${code}) before the ready line:\n${out}`)));
  });
  const ready = JSON.parse(readFileSync(readyFile, 'utf8')) as { url: string; pid: number };
  const one: Started = { npx: child, pid: ready.pid, port: Number(new URL(ready.url).port), data, readyFile, output: () => out, exited };
  started.push(one);
  return one;
}

/** Resolves once `pid` has ended (checked every 50 ms, at most 20 s). */
async function ended(pid: number): Promise<void> {
  for (let i = 0; i < 400 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  if (alive(pid)) throw new Error(`the sandbox (process ${pid}) is still running`);
}

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

async function expectStopped(sandbox: Started): Promise<void> {
  await sandbox.exited;
  await ended(sandbox.pid);
  expect(await refused(sandbox.port)).toBe(true);
  expect(existsSync(join(sandbox.data, '.lock')), 'the data-folder lock is released').toBe(false);
  expect(existsSync(sandbox.readyFile), 'the ready file is removed').toBe(false);
}

describe('npx deposit-sandbox in the clone', () => {
  it('the first start does not build the package again', async () => {
    const bundle = join(ROOT, 'dist', 'cli', 'deposit-sandbox.cjs');
    const before = statSync(bundle).mtimeMs;
    const sandbox = await startNpx();
    expect(sandbox.output()).not.toMatch(/tsc -p|rolldown/);
    expect(statSync(bundle).mtimeMs).toBe(before);
    process.kill(sandbox.npx.pid!, 'SIGTERM');
    await expectStopped(sandbox);
  }, 60_000);

  it('SIGTERM to the npx process ends the sandbox and releases the data folder', async () => {
    const sandbox = await startNpx();
    process.kill(sandbox.npx.pid!, 'SIGTERM');
    await expectStopped(sandbox);
  }, 60_000);

  it('Ctrl-C (SIGINT to the process group) ends it the same way, saving the store', async () => {
    const sandbox = await startNpx();
    process.kill(-sandbox.npx.pid!, 'SIGINT');
    await expectStopped(sandbox);
    expect(sandbox.output()).toContain('SIGINT received: saving the store and exiting');
  }, 60_000);

  it('a closed terminal (SIGHUP to the process group) ends it the same way', async () => {
    const sandbox = await startNpx();
    process.kill(-sandbox.npx.pid!, 'SIGHUP');
    await expectStopped(sandbox);
  }, 60_000);
});
