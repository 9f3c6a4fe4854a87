/**
 * The Python, PHP and Go example receivers (examples/python/receiver_with_probe.py,
 * examples/php/public/receiver-with-probe.php, examples/go/cmd/receiver-with-probe), each run as
 * its own process on 127.0.0.1 with a balance probe over its own ledger, pass
 * `deposit-sandbox check-callback --probe --runs 50 --seed 1`: schedules that include deliveries
 * sent at the same moment and retries overlapping a timed-out attempt. The same command flags
 * examples/receivers/check-then-insert.mjs with the race cause, so these 50 schedules do meet
 * overlap. The build in dist/ (`npm run build` before this file alone). A missing toolchain
 * skips its language with a message, except with CI=true, where it fails.
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closedPort } from './callbacks-receiver.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'deposit-sandbox.js');
const CI = process.env['CI'] === 'true';
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DEPOSIT_SANDBOX_') && name !== 'PORT'));
const dir = mkdtempSync(join(tmpdir(), 'deposit-sandbox-lang-fuzz-'));
const FUZZ = ['--runs', '50', '--seed', '1'];
const RACE = 'twice when two deliveries of one event overlapped: the receiver checks and then writes without a unique key or a lock';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const has = (command: string) => spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0 || spawnSync(command, ['version'], { stdio: 'ignore' }).status === 0;

function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeout: number }): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, options, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

const fuzz = (port: number) =>
  run(process.execPath, [BIN, 'check-callback', `http://127.0.0.1:${port}/callback`, '--probe', `http://127.0.0.1:${port}/probe`, ...FUZZ], { cwd: ROOT, env, timeout: 90_000 });

/** Starts a receiver process and resolves with its port once `ready` matches its output. */
function start(command: string, args: string[], options: { cwd: string; env: Record<string, string> }, ready: RegExp): Promise<number> {
  const child = spawn(command, args, { cwd: options.cwd, env: { ...env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${command} did not start within 60 s: ${out}`)), 60_000);
    const watch = (chunk: Buffer) => {
      out += chunk.toString();
      const match = ready.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', watch);
    child.stderr!.on('data', watch);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code}: ${out}`));
    });
  });
}

const LISTENING = /probe on http:\/\/127\.0\.0\.1:(\d+)\/probe/;

const LANGUAGES: Array<[string, string, () => Promise<number>]> = [
  ['Python', 'python3', () => start('python3', ['receiver_with_probe.py'], { cwd: join(ROOT, 'examples', 'python'), env: { PORT: '0' } }, LISTENING)],
  [
    'PHP',
    'php',
    async () => {
      const port = await closedPort();
      const ledger = { LEDGER_FILE: join(dir, 'php-ledger.json'), PHP_CLI_SERVER_WORKERS: '4' };
      await start('php', ['-S', `127.0.0.1:${port}`, 'public/receiver-with-probe.php'], { cwd: join(ROOT, 'examples', 'php'), env: ledger }, /(Development Server) \(http/);
      return port;
    },
  ],
  [
    'Go',
    'go',
    async () => {
      const cwd = join(ROOT, 'examples', 'go');
      const goEnv = { ...env, GOCACHE: join(dir, 'gocache'), GOFLAGS: '-mod=mod' };
      const binary = join(dir, 'receiver-with-probe');
      const build = await run('go', ['build', '-o', binary, './cmd/receiver-with-probe'], { cwd, env: goEnv, timeout: 150_000 });
      if (build.code !== 0) throw new Error(`go build failed: ${build.stderr}`);
      return start(binary, [], { cwd, env: { PORT: '0' } }, LISTENING);
    },
  ],
];

describe('the example receivers under the callback fuzzer with overlap', () => {
  it('the same fuzzer settings flag the check-then-insert receiver with the race cause', { timeout: 120_000 }, async () => {
    const port = await start(process.execPath, [join(ROOT, 'examples', 'receivers', 'check-then-insert.mjs')], { cwd: ROOT, env: { PORT: '0' } }, LISTENING);
    const result = await fuzz(port);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(RACE);
  });

  it.for(LANGUAGES)('%s: passes check-callback --probe --runs 50 --seed 1', { timeout: 240_000 }, async ([language, command, launch], { skip }) => {
    if (!has(command)) {
      if (CI) throw new Error(`${command} is missing, and CI=true: install it (see .ci/run)`);
      skip(`the ${language} example receiver needs ${command}, which is not installed`);
    }
    const port = await launch();
    const result = await fuzz(port);
    expect(result.stderr).toBe('');
    expect(result.stdout).not.toContain(RACE);
    expect(result.stdout).toContain('No violation in 50 schedules.');
    expect(result.code).toBe(0);
  });
});
