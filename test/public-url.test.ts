/**
 * payment_data.url carries the address the sandbox really listens on, also in the callbacks
 * of steps that fell due while it was stopped and run as it starts again with --port 0.
 * The first run is in this process with the wall clock set a minute back, so the trade's
 * 5-second step is already overdue when the real process starts: no waiting.
 * It runs the build in dist/ (`npm test` builds first).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, vi } from 'vitest';
import { it } from './temp-folder.js';
import { startSandbox } from '../src/index.js';
import { startReceiver } from './callbacks-receiver.js';
import { DEMO } from './support.js';

const BIN = fileURLToPath(new URL('../bin/deposit-sandbox.js', import.meta.url));
const READY = /^deposit-sandbox listening on (http:\/\/127\.0\.0\.1:\d+)$/m;
const cleanups: Array<() => unknown> = [];

afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Writes one `sbx-confirm-` trade with a callback_url into `data`, its 5 s step a minute overdue. */
async function storeOverdueTrade(data: string, callbackUrl: string): Promise<string> {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 60_000 });
  const first = await startSandbox({ data });
  const res = await fetch(`${first.url}/api/v1/trades/deposit/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token },
    body: JSON.stringify({ merchant: DEMO.id, order: `sbx-confirm-public-url-${process.pid}`, amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank', callback_url: callbackUrl }),
  });
  expect(res.status).toBe(201);
  const { id } = (await res.json()) as { id: string };
  await first.close();
  vi.useRealTimers();
  return id;
}

it('a callback sent at start-up with --port 0 carries the real port in payment_data.url', async ({ folder: data }) => {
  const receiver = await startReceiver();
  cleanups.push(() => receiver.close());
  const id = await storeOverdueTrade(data, `${receiver.url}/callbacks`);
  expect(receiver.received).toHaveLength(0);

  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data', data], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.once('close', resolve));
  cleanups.push(() => {
    child.kill('SIGTERM');
    return exited;
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = READY.exec(out);
      if (match) resolve(match[1]!);
    });
    void exited.then(() => reject(new Error(`deposit-sandbox exited before its ready line:\n${out}`)));
  });

  const [callback] = await receiver.waitFor(1);
  const body = JSON.parse(callback!.body) as { id: string; state: string; payment_data: { url: string } };
  expect(body).toMatchObject({ id, state: 'confirmed' });
  expect(body.payment_data.url).toBe(`${url}/pay/${id}`);
});
