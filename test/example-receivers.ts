/**
 * The Python, PHP and Go example receivers with their balance probe
 * (examples/python/receiver_with_probe.py, examples/php/public/receiver-with-probe.php,
 * examples/go/cmd/receiver-with-probe), started as processes on 127.0.0.1 for the tests that
 * put them under the fuzzer or in front of a sandbox. `stop()` kills what was started (afterEach);
 * `remove()` deletes the temporary folder (afterAll).
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './callbacks-receiver.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CI = process.env['CI'] === 'true';
/** The environment without the sandbox's own variables, so a child starts with its defaults. */
export const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DEPOSIT_SANDBOX_') && name !== 'PORT'));
/** What the receivers and examples/receivers/*.mjs print once listening; group 1 is the port. */
export const LISTENING = /probe on http:\/\/127\.0\.0\.1:(\d+)\/probe/;

/** True when the toolchain command answers `--version` or `version`. */
export const has = (command: string) => spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0 || spawnSync(command, ['version'], { stdio: 'ignore' }).status === 0;

export function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeout: number }): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, options, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/**
 * Kills a process started with `detached: true` and every process it started (its process group):
 * `php -S` with PHP_CLI_SERVER_WORKERS forks workers, and `go run` runs the program it built, which
 * outlive a kill of the parent alone and keep their ports.
 */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** A language's name, its toolchain command, and a start that resolves with the receiver's port. */
export type Language = [string, string, () => Promise<number>];

/**
 * The example receivers of each language, started and stopped by the test; `folder` gives the
 * folder their files go to (PHP's ledger, Go's build cache and binary) when one starts.
 */
export function exampleReceivers(folder: () => string) {
  const children: ChildProcess[] = [];

  /** Starts a receiver process and resolves with its port once `ready` matches its output. */
  function start(command: string, args: string[], options: { cwd: string; env: Record<string, string> }, ready: RegExp): Promise<number> {
    // A process group of its own: stop() kills what it started too (PHP's server workers).
    const child = spawn(command, args, { cwd: options.cwd, env: { ...env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
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

  const languages: Language[] = [
    ['Python', 'python3', () => start('python3', ['receiver_with_probe.py'], { cwd: join(ROOT, 'examples', 'python'), env: { PORT: '0' } }, LISTENING)],
    [
      'PHP',
      'php',
      async () => {
        const port = await freePort();
        const ledger = { LEDGER_FILE: join(folder(), 'php-ledger.json'), PHP_CLI_SERVER_WORKERS: '4' };
        await start('php', ['-S', `127.0.0.1:${port}`, 'public/receiver-with-probe.php'], { cwd: join(ROOT, 'examples', 'php'), env: ledger }, /(Development Server) \(http/);
        return port;
      },
    ],
    [
      'Go',
      'go',
      async () => {
        const cwd = join(ROOT, 'examples', 'go');
        const goEnv = { ...env, GOCACHE: join(folder(), 'gocache'), GOFLAGS: '-mod=mod' };
        const binary = join(folder(), 'receiver-with-probe');
        const build = await run('go', ['build', '-o', binary, './cmd/receiver-with-probe'], { cwd, env: goEnv, timeout: 150_000 });
        if (build.code !== 0) throw new Error(`go build failed: ${build.stderr}`);
        return start(binary, [], { cwd, env: { PORT: '0' } }, LISTENING);
      },
    ],
  ];

  return {
    languages,
    start,
    stop: () => {
      for (const child of children.splice(0)) killGroup(child);
    },
  };
}
