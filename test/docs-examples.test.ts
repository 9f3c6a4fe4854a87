/**
 * Every ```bash block of the README and docs/ runs, as a reader would paste it, against a real
 * sandbox process (docs/getting-started.md has its own, stricter test: docs-getting-started.test.ts).
 *
 * For each block:
 * - `127.0.0.1:4242` (the sandbox) and `127.0.0.1:4243` (a receiver the block starts) become two
 *   free ports, so blocks can run beside other tests; `npx deposit-sandbox` runs this checkout's CLI;
 * - the block runs with bash in a temporary folder that holds only a copy of this checkout's
 *   `examples/` (so a block can start a reference receiver, `examples/receivers/*.mjs`, as a reader
 *   does from a checkout); background jobs it starts are stopped when it ends;
 * - unless the block starts a sandbox itself (`npx deposit-sandbox [flags] &`), the test starts one
 *   first, with the flags of a `<!-- docs-test: serve <flags> -->` line right above the block
 *   (default `--in-memory`);
 * - it must exit 0, and no JSON line it prints may be a 404 or 5xx error envelope (a stale id, a
 *   route that moved, a sandbox bug) unless the page shows that error right after the block.
 * The process runs the build in dist/ (`npm test` builds first).
 */
import { execFile, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { closedPort } from './callbacks-receiver.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fences, markdownFiles, readDoc, ROOT, type Fence } from './docs/markdown.js';

const BIN = join(ROOT, 'bin', 'deposit-sandbox.js');
const COVERED_ELSEWHERE = new Set(['docs/getting-started.md']);
/** A line that starts a sandbox in the background, as a reader does in a second terminal. */
const STARTS_SANDBOX = /^\s*npx deposit-sandbox( serve)?( -[^&]*)?\s*&\s*$/m;

interface Example {
  fence: Fence;
  /** Flags for the sandbox the test starts, or undefined when the block starts its own. */
  serve: string[] | undefined;
  /** The error status the page shows right after the block, if it shows one. */
  documentedError: number | undefined;
}

function examples(): Example[] {
  const found: Example[] = [];
  for (const file of markdownFiles().filter((f) => !COVERED_ELSEWHERE.has(f))) {
    const all = fences(file, readDoc(file));
    all.forEach((fence, index) => {
      if (fence.lang !== 'bash') return;
      const next = all[index + 1];
      let documentedError: number | undefined;
      if (next && next.lang !== 'bash') {
        const status = /"status":\s*(\d{3})/.exec(next.code);
        if (status) documentedError = Number(status[1]);
      }
      const marker = fence.marker?.name === 'docs-test' ? fence.marker.value : undefined;
      const flags = marker
        ?.replace(/^serve\s*/, '')
        .split(/\s+/)
        .filter(Boolean) ?? ['--in-memory'];
      found.push({ fence, serve: STARTS_SANDBOX.test(fence.code) ? undefined : flags, documentedError });
    });
  }
  return found;
}

const EXAMPLES = examples();

/** The environment without DEPOSIT_SANDBOX_*, PORT or proxies (curl must reach 127.0.0.1 directly). */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DEPOSIT_SANDBOX_') && name !== 'PORT' && !/^(https?|all|no)_proxy$/i.test(name)));
  return { ...env, NO_PROXY: '127.0.0.1', no_proxy: '127.0.0.1', ...extra };
}

/** Starts the CLI with `flags` on `port` and resolves once it printed its ready line. */
async function startSandbox(flags: string[], port: number, cwd: string): Promise<() => Promise<void>> {
  const child = spawn(process.execPath, [BIN, ...flags, '--port', String(port)], { cwd, env: cleanEnv({}), stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  await new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) resolve();
    });
    void exited.then(() => reject(new Error(`deposit-sandbox ${flags.join(' ')} exited before its ready line:\n${out}\n${err}`)));
  });
  return async () => {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
}

/**
 * `npx deposit-sandbox` and `deposit-sandbox` run this checkout's CLI; in a background job (a
 * subshell) the CLI replaces the subshell, so stopping the job stops the sandbox. The CLI's own
 * defaults (port 4242, --url http://127.0.0.1:4242) point at the block's sandbox.
 */
const PRELUDE = (sandboxPort: number) => `
deposit-sandbox() { if [ "$BASHPID" != "$$" ]; then exec node ${JSON.stringify(BIN)} "$@"; else node ${JSON.stringify(BIN)} "$@"; fi; }
npx() { if [ "$1" = deposit-sandbox ]; then shift; deposit-sandbox "$@"; else command npx "$@"; fi; }
export DEPOSIT_SANDBOX_PORT=${sandboxPort} DEPOSIT_SANDBOX_URL=http://127.0.0.1:${sandboxPort}
trap 'jobs -p | xargs -r kill 2>/dev/null; wait 2>/dev/null' EXIT
`;

function bash(script: string, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['--noprofile', '--norc', '-c', script], { cwd, env: cleanEnv({}), timeout: 120_000, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr: stderr + (error && typeof error.code !== 'number' ? String(error) : '') });
    });
  });
}

describe('every bash block of the docs runs', () => {
  it('there are blocks to run', () => {
    expect(EXAMPLES.length).toBeGreaterThan(10);
  });

  it.each(EXAMPLES.map((example) => [`${example.fence.file}:${example.fence.line} (${example.fence.heading})`, example] as const))(
    '%s',
    async (_name, { fence, serve, documentedError }) => {
      const [sandboxPort, receiverPort] = [await closedPort(), await closedPort()];
      const cwd = mkdtempSync(join(tmpdir(), 'docs-example-'));
      cpSync(join(ROOT, 'examples'), join(cwd, 'examples'), { recursive: true });
      const stop = serve ? await startSandbox(serve, sandboxPort, cwd) : undefined;
      try {
        // One pass: a sandbox port that contains "4243" (34243) must not be replaced again.
        const code = fence.code.replace(/127\.0\.0\.1:4242|4243/g, (found) => (found === '4243' ? String(receiverPort) : `127.0.0.1:${sandboxPort}`));
        const run = await bash(PRELUDE(sandboxPort) + code, cwd);
        const context = `${fence.file}:${fence.line} printed:\n${run.stdout}\n${run.stderr}`;
        expect(run.code, context).toBe(0);
        for (const envelope of run.stdout.matchAll(/\{"error":\{"status":(\d{3})/g)) {
          const status = Number(envelope[1]);
          if (status === documentedError) continue;
          expect(status === 404 || status >= 500, `an unexpected ${status} answer: ${context}`).toBe(false);
        }
      } finally {
        await stop?.();
        rmSync(cwd, { recursive: true, force: true });
      }
    },
    180_000,
  );
});
