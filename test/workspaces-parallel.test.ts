/**
 * Eight workers share one sandbox process, each in its own workspace: the same order ids,
 * conflicting forced outcomes, their own manual clock advances and resets. Nothing may cross
 * between them (trades, callbacks, clock, scenarios). Then the process is killed (-9) and
 * started again on the same data folder, and every workspace is checked and driven further.
 * Runs the build in dist/ (run `npm run build` before running this file alone).
 */
import { afterAll, describe, expect } from 'vitest';
import { it, test } from './temp-folder.js';
import { resetCommand } from '../src/cli/reset.js';
import { signCommand } from '../src/cli/sign-command.js';
import { triggerCommand } from '../src/cli/trigger.js';
import { startReceiver, type Receiver } from './callbacks-receiver.js';
import { killAll, serve } from './data-folder-support.js';
import { DEMO } from './support.js';

const WORKERS = 8;
const ORDERS = ['same-1', 'same-2', 'same-3', 'same-4', 'same-5'];

/** The file's temporary folder (the fixture removes it after the file's tests). */
let data: string;
test.beforeAll(({ fileFolder }) => {
  data = fileFolder;
});
let receiver: Receiver | undefined;
afterAll(async () => {
  killAll();
  await receiver?.close();
});

/** The sandbox on the shared data folder, with a manual clock and a fixed public URL. */
const start = () => serve(data, ['--clock', 'manual', '--public-url', 'http://sandbox.test']);

async function call<T = Record<string, unknown>>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { 'Content-Type': typeof body === 'string' ? 'application/yaml' : 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as T };
}

interface Trade {
  id: string;
  order: string;
  state: string;
}

/** What each worker expects its workspace to hold. */
interface Expected {
  name: string;
  state: 'confirmed' | 'canceled';
  delay: number;
  trades: Map<string, Trade>;
  clock: string;
  pending: number;
}

const scenario = (state: string, delay: number) =>
  `scenarios:\n  - name: outcome\n    description: This worker's outcome.\n    match:\n      order: "^same-"\n    timeline:\n      - after: ${delay}s\n        state: ${state}\n`;

async function worker(url: string, index: number): Promise<Expected> {
  const name = `worker-${index}`;
  const base = `${url}/w/${name}`;
  const state = index % 2 === 0 ? 'confirmed' : 'canceled';
  const delay = index + 1;
  expect((await call('PUT', `${base}/_sandbox/scenarios`, scenario(state, delay))).status).toBe(200);
  const trades = new Map<string, Trade>();
  const create = async (order: string) => {
    const res = await call<Trade>(
      'POST',
      `${base}/api/v1/trades/deposit/create`,
      {
        merchant: DEMO.id,
        order,
        amount_cents: 10_000 + index,
        amount_currency: 'RUB',
        type: 'any_bank',
        callback_url: `${receiver!.url}/${name}`,
      },
      { 'X-Auth': DEMO.token },
    );
    expect(res.status, `${name} ${order}`).toBe(201);
    trades.set(res.body.id, res.body);
    return res.body;
  };
  for (const order of ORDERS) await create(order);
  const before = (await call<{ now: string }>('GET', `${base}/_sandbox/clock`)).body.now;
  // Just short of this worker's delay nothing happens; at it, every trade moves.
  expect((await call<{ ran: number }>('POST', `${base}/_sandbox/clock/advance`, { by: `${delay * 1000 - 1}ms` })).body.ran).toBe(0);
  const advanced = await call<{ ran: number; now: string }>('POST', `${base}/_sandbox/clock/advance`, { by: '1ms' });
  expect(advanced.body.ran).toBeGreaterThanOrEqual(ORDERS.length);
  expect(Date.parse(advanced.body.now) - Date.parse(before)).toBe(delay * 1000);
  for (const trade of trades.values()) trade.state = state;
  if (index % 2 === 0) {
    // Even workers reset (through the CLI) and start again; odd ones keep theirs.
    await resetCommand({ url, source: 'flag', workspace: name }, { json: true }, () => undefined);
    trades.clear();
    await create('same-1');
  }
  // One trade moved by hand through the CLI, one left waiting for its step (pending across the restart).
  const manual = await create('manual-1');
  await triggerCommand({ url, source: 'flag', workspace: name }, { id: manual.id }, state === 'confirmed' ? 'canceled' : 'confirmed', { json: true }, () => undefined);
  manual.state = state === 'confirmed' ? 'canceled' : 'confirmed';
  await create('same-9');
  // The callback of the hand-moved trade is delivered by a job of its own, which stays pending
  // until its attempt is saved (after the event reads delivered): wait until it is done, so the
  // pending jobs counted here are the scenario steps that stay pending across the restart, one
  // per "same-" trade made after the advance (same-1 again after a reset, and same-9).
  const steps = index % 2 === 0 ? 2 : 1;
  await expect
    .poll(async () => (await call<{ callbacks: Array<{ status: string }> }>('GET', `${base}/_sandbox/callbacks`)).body.callbacks.filter((c) => c.status === 'pending').length, { timeout: 30_000 })
    .toBe(0);
  await expect.poll(async () => (await call<{ pending: number }>('GET', `${base}/_sandbox/clock`)).body.pending, { timeout: 30_000 }).toBe(steps);
  const clock = (await call<{ now: string; pending: number }>('GET', `${base}/_sandbox/clock`)).body;
  return { name, state, delay, trades, clock: clock.now, pending: clock.pending };
}

async function check(url: string, expected: Expected): Promise<void> {
  const base = `${url}/w/${expected.name}`;
  const listed = (await call<{ trades: Trade[]; total: number }>('GET', `${base}/_sandbox/trades`)).body;
  expect(new Map(listed.trades.map((t) => [t.id, t.state]))).toEqual(new Map([...expected.trades.values()].map((t) => [t.id, t.state])));
  const clock = (await call<{ now: string; pending: number }>('GET', `${base}/_sandbox/clock`)).body;
  expect(clock).toMatchObject({ now: expected.clock, pending: expected.pending });
  const scenarios = (await call<{ scenarios: Array<{ name: string; effect?: string }> }>('GET', `${base}/_sandbox/scenarios`)).body.scenarios;
  expect(scenarios[0]?.name).toBe('outcome');
  expect(JSON.stringify(scenarios[0])).toContain(expected.state);
}

/** Every callback went to its own worker's path, with its workspace's header and its trades only. */
function checkCallbacks(expected: Expected[]): void {
  for (const worker of expected) {
    const mine = receiver!.received.filter((r) => r.path === `/${worker.name}`);
    expect(mine.length).toBeGreaterThan(0);
    for (const request of mine) {
      expect(request.headers['x-sandbox-workspace']).toBe(worker.name);
      const body = JSON.parse(request.body) as Trade & { amount_cents: number };
      expect(body.amount_cents).toBe(10_000 + Number(worker.name.slice('worker-'.length)));
    }
  }
  expect(receiver!.received.every((r) => expected.some((w) => r.path === `/${w.name}`))).toBe(true);
}

describe('eight workers in eight workspaces of one process', () => {
  it('see none of each other, before and after a kill -9 and restart', async () => {
    receiver = await startReceiver();
    const first = await start();
    const expected = await Promise.all(Array.from({ length: WORKERS }, (_, index) => worker(first.url, index)));
    for (const worker of expected) await check(first.url, worker);
    checkCallbacks(expected);
    // Default saw nothing of it.
    expect((await call<{ trades: Trade[] }>('GET', `${first.url}/_sandbox/trades`)).body.trades).toEqual([]);
    // sign --workspace: the sandbox signs with the secret of a merchant added to one workspace only.
    const added = (await call<{ merchant: { id: string; secret: string; token: string } }>('POST', `${first.url}/w/worker-3/_sandbox/merchants`, {})).body.merchant;
    let printed = '';
    await signCommand(
      [`merchant=${added.id}`, 'order=o-1', 'amount_cents=100', 'amount_currency=RUB', 'type=nspk'],
      { url: first.url, workspace: 'worker-3', json: true },
      (text) => (printed += text),
    );
    const signed = JSON.parse(printed) as { signature: string; string_to_sign: string };
    const { createHmac } = await import('node:crypto');
    expect(signed.signature).toBe(createHmac('sha256', added.secret).update(signed.string_to_sign).digest('hex'));
    await expect(signCommand([`merchant=${added.id}`], { url: first.url, workspace: 'worker-4' }, () => undefined)).rejects.toThrow(/No merchant/);

    first.child.kill('SIGKILL');
    await first.exited;
    const second = await start();
    const listed = (await call<{ workspaces: Array<{ name: string }> }>('GET', `${second.url}/_sandbox/workspaces`)).body.workspaces.map((w) => w.name);
    expect(listed).toEqual(['default', ...expected.map((w) => w.name)]);
    for (const worker of expected) await check(second.url, worker);
    const again = await call(
      'POST',
      `${second.url}/w/worker-3/api/v1/trades/deposit/create`,
      { merchant: added.id, order: 'after-restart', amount_cents: 100, amount_currency: 'RUB', type: 'nspk' },
      { 'X-Auth': added.token },
    );
    expect(again.status).toBe(201);

    // Each worker's waiting step runs on its own clock, after the restart, into its own receiver path.
    const before = receiver.received.length;
    await Promise.all(
      expected.map(async (worker) => {
        const advanced = await call<{ ran: number }>('POST', `${second.url}/w/${worker.name}/_sandbox/clock/advance`, { by: `${worker.delay}s` });
        expect(advanced.body.ran).toBeGreaterThanOrEqual(1);
        const same9 = [...worker.trades.values()].find((t) => t.order === 'same-9');
        expect(same9).toBeDefined();
        const detail = await call<{ trade: Trade }>('GET', `${second.url}/w/${worker.name}/_sandbox/trades/${same9!.id}`);
        expect(detail.body.trade.state).toBe(worker.state);
      }),
    );
    expect(receiver.received.length - before).toBeGreaterThanOrEqual(WORKERS);
    checkCallbacks(expected);
    second.child.kill('SIGTERM');
    await second.exited;
  }, 180_000);
});
