/**
 * Every ```bash block of the README and docs/ runs, as a reader would paste it, against a real
 * sandbox over HTTP (docs/getting-started.md has its own, stricter test: docs-getting-started.test.ts).
 *
 * For each block:
 * - `127.0.0.1:4242` (the sandbox) and `127.0.0.1:4243` (a receiver the block starts) become two
 *   free ports, so blocks can run beside other tests; `npx deposit-sandbox` runs this checkout's CLI;
 * - the block runs with bash in a temporary folder of its own, which holds a copy of this
 *   checkout's `examples/` when the block names that folder (so a block can start a reference
 *   receiver, `examples/receivers/*.mjs`, as a reader does from a checkout; most blocks do not,
 *   and copying the folder costs more than many a block's run); background jobs it starts are
 *   stopped when it ends;
 * - unless the block starts a sandbox itself (`npx deposit-sandbox [flags] &`, a real process),
 *   the test starts one first, with the flags of a `<!-- docs-test: serve <flags> -->` line right
 *   above the block (default `--in-memory`): in this process with startSandbox() (the same app,
 *   over real HTTP on 127.0.0.1; what `serve` adds as a process, the ready line, signals and
 *   --ready-file, is the point of cli*.test.ts and of the blocks that start their own);
 * - it must exit 0, and no JSON line it prints may be a 404 or 5xx error envelope (a stale id, a
 *   route that moved, a sandbox bug) unless the page shows that error right after the block.
 * Blocks do not depend on each other (docs/writing-docs.md), each has its own ports, folder and
 * sandbox, so they run concurrently: most of a block's time is spent waiting on curl, on the CLI
 * starting, or on a `sleep` of the page.
 * The CLI the blocks call runs the build in dist/ (`npm test` builds first).
 */
import { spawn } from 'node:child_process';
import { cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './callbacks-receiver.js';
import { describe, expect } from 'vitest';
import { it } from './temp-folder.js';
import { startSandbox, type SandboxOptions } from '../src/index.js';
import { fences, markdownFiles, readDoc, ROOT, type Fence } from './docs/markdown.js';
import { shellEnv } from './sandbox-process.js';

const BIN = join(ROOT, 'bin', 'deposit-sandbox.js');
const COVERED_ELSEWHERE = new Set(['docs/getting-started.md']);
/** A line that starts a sandbox in the background, as a reader does in a second terminal. */
const STARTS_SANDBOX = /^\s*npx deposit-sandbox( serve)?( -[^&]*)?\s*&\s*$/m;
/** A block that uses the checkout's examples folder (a reference receiver, a language example). */
const NAMES_EXAMPLES = /\bexamples\b/;

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

/**
 * The blocks, those that run the callback fuzzer (`--runs`) first: they take the longest, so they
 * start while the short ones run beside them instead of being left to run alone at the end.
 */
const EXAMPLES = examples().sort((a, b) => Number(b.fence.code.includes('--runs')) - Number(a.fence.code.includes('--runs')));

/**
 * The options of `serve` flags (`--in-memory`, `--clock manual`, `--callback-timeout 1s`) as
 * startSandbox() takes them (camelCase); startSandbox refuses one it does not know, naming it.
 */
function serveOptions(flags: string[]): SandboxOptions {
  const options: Record<string, unknown> = {};
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i]!;
    if (!flag.startsWith('--')) throw new Error(`docs-test: serve ${flags.join(' ')}: expected a --flag, found "${flag}"`);
    const key = flag.slice(2).replace(/-([a-z])/g, (_m, letter: string) => letter.toUpperCase());
    const value = flags[i + 1];
    if (value === undefined || value.startsWith('--')) options[key] = true;
    else {
      options[key] = value;
      i++;
    }
  }
  return options as SandboxOptions;
}

/**
 * `npx deposit-sandbox` and `deposit-sandbox` run this checkout's CLI; in a background job (a
 * subshell) the CLI replaces the subshell, so stopping the job stops the sandbox. The CLI's own
 * defaults (port 4242, --url http://127.0.0.1:4242) point at the block's sandbox. The CLI keeps
 * the machine's temporary folder, where a reader's CLI finds its code cache (docs/operations.md),
 * instead of the block's, which would start every command without one.
 */
const CLI_TMPDIR = JSON.stringify(tmpdir());
const PRELUDE = (sandboxPort: number) => `
deposit-sandbox() { if [ "$BASHPID" != "$$" ]; then TMPDIR=${CLI_TMPDIR} exec node ${JSON.stringify(BIN)} "$@"; else TMPDIR=${CLI_TMPDIR} node ${JSON.stringify(BIN)} "$@"; fi; }
npx() { if [ "$1" = deposit-sandbox ]; then shift; deposit-sandbox "$@"; else command npx "$@"; fi; }
export DEPOSIT_SANDBOX_PORT=${sandboxPort} DEPOSIT_SANDBOX_URL=http://127.0.0.1:${sandboxPort}
trap 'jobs -p | xargs -r kill 2>/dev/null; wait 2>/dev/null' EXIT
`;

/**
 * Runs `script` with bash in its own process group, and then stops whatever is left in it: a
 * receiver or sandbox in the background outlives a bash killed at the bound (no EXIT trap then).
 */
function bash(script: string, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // TMPDIR: what a block makes with mktemp goes into its folder, which is removed after it.
    const child = spawn('bash', ['--noprofile', '--norc', '-c', script], { cwd, env: shellEnv({ TMPDIR: cwd }), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const stopGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Nothing left.
      }
    };
    const bound = setTimeout(() => {
      stderr += '\n(killed: still running after 570 s)';
      stopGroup();
    }, 570_000);
    child.once('exit', () => {
      clearTimeout(bound);
      stopGroup();
    });
    child.once('error', (error) => resolve({ code: 1, stdout, stderr: `${stderr}${String(error)}` }));
    child.once('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

describe('every bash block of the docs runs', () => {
  it('there are blocks to run', () => {
    expect(EXAMPLES.length).toBeGreaterThan(10);
  });

  it.concurrent.for(EXAMPLES.map((example) => [`${example.fence.file}:${example.fence.line} (${example.fence.heading})`, example] as const))(
    '%s',
    // A bound for a hang, not for speed (a block waits for its turn, maxConcurrency, outside it):
    // one that runs the callback fuzzer 1000 times has taken four minutes on a loaded machine.
    { timeout: 600_000 },
    async ([, { fence, serve, documentedError }], { expect, folder: cwd, onTestFinished }) => {
      const sandbox = serve ? await startSandbox(serveOptions(serve)) : undefined;
      if (sandbox) onTestFinished(() => sandbox.close());
      const sandboxPort = sandbox ? Number(new URL(sandbox.url).port) : await freePort();
      const receiverPort = await freePort();
      // Asynchronous file work: the event loop that copies also serves the blocks' sandboxes.
      if (NAMES_EXAMPLES.test(fence.code)) await cp(join(ROOT, 'examples'), join(cwd, 'examples'), { recursive: true });
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
    },
  );
});
