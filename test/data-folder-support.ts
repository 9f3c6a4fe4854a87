/**
 * Real `deposit-sandbox serve` processes on a data folder, for the tests of the lock and of
 * disk faults. Runs the build in dist/ (run `npm run build` before running these files alone).
 */
import { execFileSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawnProcess, startProcess } from './sandbox-process.js';
import { DEMO, nextOrder } from './support.js';

/** Kills what a test left running (call in afterAll). */
export { killAll } from './sandbox-process.js';

export interface Serving {
  child: ChildProcessWithoutNullStreams;
  url: string;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code once the process is gone (and reaped). */
  exited: Promise<number | null>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<number | null>;
}

/** Starts `serve` on `data` and resolves once it prints its ready line. */
export async function serve(data: string, extra: string[] = []): Promise<Serving> {
  const { child, url, stderr, exited } = await startProcess(['--port', '0', '--data', data, ...extra]);
  return {
    child,
    url,
    stderr,
    exited,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Resolves once the process's stderr contains `text` (checked on each chunk); rejects if it exits first. */
export function stderrContains(serving: Serving, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!serving.stderr().includes(text)) return;
      serving.child.stderr.off('data', check);
      resolve();
    };
    serving.child.stderr.on('data', check);
    check();
    void serving.exited.then(() => reject(new Error(`exited before writing ${JSON.stringify(text)} to stderr:\n${serving.stderr()}`)));
  });
}

export interface Refused {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Milliseconds from spawn to exit. */
  ms: number;
}

/** Starts `serve` on `data` expecting it to refuse; resolves with how it exited. */
export async function serveRefused(data: string, extra: string[] = []): Promise<Refused> {
  const started = Date.now();
  const { child, stdout, stderr, exited } = spawnProcess(['--port', '0', '--data', data, ...extra]);
  // A bound for a hang: a start-up that refuses has taken more than 10 s on a loaded machine.
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const code = await exited;
  clearTimeout(timer);
  return { code, stdout: stdout(), stderr: stderr(), ms: Date.now() - started };
}

/** POST create with the demo merchant's token; resolves with the status and parsed body. */
export async function createTrade(url: string, order = nextOrder('disk')): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}/api/v1/trades/deposit/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token },
    body: JSON.stringify({ merchant: DEMO.id, order, amount_cents: 10000, amount_currency: 'RUB', type: 'any_bank' }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The ids of every trade of a running sandbox (admin API). */
export async function tradeIds(url: string): Promise<string[]> {
  const res = await fetch(`${url}/_sandbox/trades?limit=1000`);
  const body = (await res.json()) as { trades: Array<{ id: string }> };
  return body.trades.map((trade) => trade.id).sort();
}

/** Runs a command as root-level setup; returns the error message instead of throwing. */
export function tryRun(command: string, args: string[]): string | undefined {
  try {
    execFileSync(command, args, { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return stderr || (error as Error).message;
  }
}
