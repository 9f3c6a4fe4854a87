/**
 * Real `deposit-sandbox serve` processes on a data folder, for the tests of the lock and of
 * disk faults. Runs the build in dist/ (run `npm run build` before running these files alone).
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEMO, nextOrder } from './support.js';

const BIN = fileURLToPath(new URL('../bin/deposit-sandbox.js', import.meta.url));

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

const children: ChildProcessWithoutNullStreams[] = [];

/** Kills what a test left running (call in afterAll). */
export function killAll(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

function spawnServe(data: string, extra: string[]): { child: ChildProcessWithoutNullStreams; out: () => string; err: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [BIN, '--port', '0', '--data', data, ...extra], { stdio: 'pipe' });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exited };
}

/** Starts `serve` on `data` and resolves once it prints its ready line. */
export async function serve(data: string, extra: string[] = []): Promise<Serving> {
  const { child, out, err, exited } = spawnServe(data, extra);
  const url = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const match = /^deposit-sandbox listening on (\S+)\n/m.exec(out());
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout.on('data', look);
    void exited.then((code) => reject(new Error(`deposit-sandbox exited (${code}) before its ready line:\n${out()}\n${err()}`)));
  });
  return {
    child,
    url,
    stderr: err,
    exited,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
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
  const { child, out, err, exited } = spawnServe(data, extra);
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  const code = await exited;
  clearTimeout(timer);
  return { code, stdout: out(), stderr: err(), ms: Date.now() - started };
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
