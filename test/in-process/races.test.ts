/**
 * Races: many requests at once on the same order, the same trade, the same clock. Exactly
 * one wins where one may, the rest get the documented refusal, and what is stored (and
 * reloaded from disk) is one consistent history.
 */
import { afterEach, describe, expect } from 'vitest';
import { it } from '../temp-folder.js';
import type { SandboxOptionsInput } from '../../src/config/options.js';

import { createServer, type Server } from '../../src/server/server.js';
import { listen } from '../../src/server/listen.js';
import { startReceiver } from '../callbacks-receiver.js';
import { checkedApp, DEMO, SECOND, nextOrder, p2pBody } from '../support.js';

const CONCURRENT = 200;
const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function open(options: SandboxOptionsInput): Promise<Server> {
  const server = await createServer({ host: '127.0.0.1', port: 0, ...options });
  cleanups.push(() => server.close());
  return server;
}

type Send = (path: string, init: { method?: string; headers?: Record<string, string>; body?: string }) => Promise<Response>;

/** How to reach a sandbox: in-process (app.request) or over a listening socket on 127.0.0.1. */
async function transport(sandbox: Server, over: 'in-process' | 'http'): Promise<Send> {
  if (over === 'in-process') {
    const app = checkedApp(sandbox);
    return async (path, init) => app.request(path, init);
  }
  const server = await listen(sandbox);
  cleanups.push(() => server.close());
  return (path, init) => fetch(`${server.url}${path}`, { ...init, signal: AbortSignal.timeout(15_000) });
}

const create = (send: Send, body: Record<string, unknown>, token: string = DEMO.token) =>
  send('/api/v1/trades/deposit/create', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': token }, body: JSON.stringify(body) });

async function all(requests: Array<Promise<Response>>): Promise<Array<{ status: number; body: Record<string, unknown> }>> {
  return Promise.all(requests.map(async (res) => ({ status: (await res).status, body: (await (await res).json()) as Record<string, unknown> })));
}

describe(`${CONCURRENT} concurrent creates with the same order`, () => {
  it.for([
    ['in-process, in memory', 'in-process', false],
    ['in-process, file store', 'in-process', true],
    ['over HTTP, in memory', 'http', false],
    ['over HTTP, file store', 'http', true],
  ] as const)('%s: exactly one 201, duplicate_order for the rest', async ([, over, persisted], { folder }) => {
    const options = persisted ? { data: folder } : { inMemory: true };
    const sandbox = await open(options);
    const send = await transport(sandbox, over);
    const order = nextOrder('race');
    const answers = await all(Array.from({ length: CONCURRENT }, (_, i) => create(send, p2pBody({ order, amount_cents: 100 + i }))));
    const created = answers.filter((a) => a.status === 201);
    expect(created).toHaveLength(1);
    const refusals = answers.filter((a) => a.status !== 201);
    expect(refusals).toHaveLength(CONCURRENT - 1);
    for (const refusal of refusals) {
      expect(refusal).toMatchObject({ status: 422, body: { error: { status: 422, code: 'duplicate_order', details: [{ field: 'order' }] } } });
      expect((refusal.body['error'] as { message: string }).message).toContain(created[0]!.body['id'] as string);
    }
    const stored = [...sandbox.root.store.trades.values()].filter((trade) => trade.order === order);
    expect(stored.map((trade) => trade.id)).toEqual([created[0]!.body['id']]);
    expect(stored[0]!.amount_cents).toBe(created[0]!.body['amount_cents']);
    if (persisted) {
      await sandbox.close();
      const reopened = await open(options);
      expect([...reopened.root.store.trades.values()].filter((trade) => trade.order === order).map((trade) => trade.id)).toEqual([created[0]!.body['id']]);
    }
  });

  it('the same order for two merchants at once: one trade each', async () => {
    const sandbox = await open({ inMemory: true });
    const send = await transport(sandbox, 'in-process');
    const order = nextOrder('shared');
    const answers = await all(Array.from({ length: CONCURRENT }, (_, i) => (i % 2 === 0 ? create(send, p2pBody({ order })) : create(send, p2pBody({ order, merchant: SECOND.id }), SECOND.token))));
    const created = answers.filter((a) => a.status === 201);
    expect(created.map((a) => a.body['merchant']).sort()).toEqual([DEMO.id, SECOND.id].sort());
    expect(answers.filter((a) => a.status === 422)).toHaveLength(CONCURRENT - 2);
  });
});

describe('concurrent transitions of one trade', () => {
  it('apply exactly one: one 200, 409 with the allowed states for the rest, one history entry, one callback', async ({ folder: dir }) => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const sandbox = await open({ data: dir, clock: 'manual' });
    const send = await transport(sandbox, 'in-process');
    const trade = (await (await create(send, p2pBody({ callback_url: `${receiver.url}/cb` }))).json()) as { id: string };
    const targets = ['confirmed', 'canceled', 'expired'];
    const answers = await all(
      Array.from({ length: CONCURRENT }, (_, i) =>
        send(`/_sandbox/trades/${trade.id}/transition`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ state: targets[i % 3], note: `racer ${i}` }) }),
      ),
    );
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    const final = (won[0]!.body['trade'] as { state: string }).state;
    for (const lost of answers.filter((a) => a.status !== 200)) {
      expect(lost).toMatchObject({ status: 409, body: { error: { status: 409, code: 'transition_not_allowed', allowed: [] } } });
    }
    const stored = sandbox.root.store.trades.get(trade.id)!;
    expect(stored.state).toBe(final);
    expect(stored.history.map((entry) => [entry.from, entry.to])).toEqual([
      [null, 'created'],
      ['created', final],
    ]);
    await sandbox.root.scheduler.advance(0);
    expect(sandbox.root.callbacks.forTrade(trade.id).map((event) => event.state)).toEqual([final]);
    expect(receiver.received).toHaveLength(1);
    await sandbox.close();
    const reopened = await open({ data: dir, clock: 'manual' });
    expect(reopened.root.store.trades.get(trade.id)?.history).toEqual(stored.history);
  });

  it('the payment page and the admin API racing on one trade: one of them wins', async () => {
    const sandbox = await open({ inMemory: true, clock: 'manual' });
    const send = await transport(sandbox, 'in-process');
    const trade = (await (await create(send, p2pBody())).json()) as { id: string };
    const requests = Array.from({ length: 60 }, (_, i) =>
      i % 3 === 0
        ? send(`/pay/${trade.id}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: '' })
        : i % 3 === 1
          ? send(`/pay/${trade.id}/cancel`, { method: 'POST' })
          : send(`/_sandbox/trades/${trade.id}/transition`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"state":"expired"}' }),
    );
    const statuses = await Promise.all(requests.map(async (res) => (await res).status));
    expect(statuses.filter((status) => status === 200 || status === 303)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(59);
    expect(sandbox.root.store.trades.get(trade.id)!.history).toHaveLength(2);
  });
});

describe('callbacks under concurrency', () => {
  it('go out in order per trade while many events of many trades are queued at once', async () => {
    const seen = new Map<string, number>();
    // Pauses of 0 to 14 ms from a fixed-seed sequence (the same every run).
    let seed = 42;
    const pause = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % 15;
    };
    // Each event's first attempt fails, after a pause, so deliveries overlap and retry.
    const receiver = await startReceiver(async (request, res) => {
      const id = String(request.headers['x-sandbox-event-id']);
      const n = (seen.get(id) ?? 0) + 1;
      seen.set(id, n);
      await new Promise((resolve) => setTimeout(resolve, pause()));
      res.writeHead(n === 1 ? 500 : 200).end();
    });
    cleanups.push(() => receiver.close());
    const sandbox = await open({ inMemory: true, callbackRetries: '10ms,10ms,10ms' });
    const total = 10 * 11;
    let delivered = 0;
    const allDelivered = new Promise<void>((resolve) => sandbox.root.callbacks.on('delivered', () => ++delivered === total && resolve()));
    const send = await transport(sandbox, 'in-process');
    const trades = await Promise.all(Array.from({ length: 10 }, async () => (await (await create(send, p2pBody({ callback_url: `${receiver.url}/cb` }))).json()) as { id: string }));
    await all(trades.map((trade) => send(`/_sandbox/trades/${trade.id}/transition`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"state":"confirmed"}' })));
    const first = trades.map((trade) => sandbox.root.callbacks.forTrade(trade.id)[0]!.id);
    // 10 replays of each trade's event, all at once: 110 events in all.
    await all(trades.flatMap((_trade, t) => Array.from({ length: 10 }, () => send(`/_sandbox/callbacks/${first[t]}/replay`, { method: 'POST' }))));
    await allDelivered;
    for (const trade of trades) {
      const events = sandbox.root.callbacks.forTrade(trade.id);
      expect(events.map((event) => event.seq)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
      // What the receiver got for this trade, in arrival order: each event twice (500, then 200), in seq order.
      const arrivals = receiver.received
        .filter((request) => String(request.headers['x-sandbox-event-id']).startsWith(`cb_${trade.id}_`))
        .map((request) => Number(String(request.headers['x-sandbox-event-id']).split('_').at(-1)));
      expect(arrivals).toEqual(events.flatMap((event) => [event.seq, event.seq]));
      for (const event of events) expect(event.attempts.map((attempt) => attempt.status)).toEqual([500, 200]);
    }
  });
});

describe('the clock and reset under concurrency', () => {
  it('concurrent clock advances run each timeline step once, in order', async () => {
    const sandbox = await open({ inMemory: true, clock: 'manual' });
    const send = await transport(sandbox, 'in-process');
    const trades = await Promise.all(Array.from({ length: 30 }, async () => (await (await create(send, p2pBody({ order: nextOrder('sbx-confirm-') }))).json()) as { id: string }));
    const start = sandbox.root.clock.now();
    const answers = await all(Array.from({ length: 20 }, () => send('/_sandbox/clock/advance', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"by":"1s"}' })));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(sandbox.root.clock.now() - start).toBe(20_000);
    expect(answers.reduce((sum, answer) => sum + (answer.body['ran'] as number), 0)).toBe(30);
    for (const trade of trades) {
      expect(sandbox.root.store.trades.get(trade.id)!.history.map((entry) => entry.to)).toEqual(['created', 'confirmed']);
    }
  });

  it('creates racing a reset: every stored trade was acknowledged, none twice', async ({ folder }) => {
    const sandbox = await open({ data: folder });
    const send = await transport(sandbox, 'http');
    const requests: Array<Promise<Response>> = [];
    for (let i = 0; i < CONCURRENT; i++) {
      requests.push(create(send, p2pBody({ order: `reset-race-${i}` })));
      if (i % 50 === 25) requests.push(send('/_sandbox/reset', { method: 'POST' }));
    }
    const answers = await all(requests);
    expect(answers.every((answer) => answer.status === 200 || answer.status === 201)).toBe(true);
    const acknowledged = new Set(answers.filter((answer) => answer.status === 201).map((answer) => answer.body['id']));
    const stored = [...sandbox.root.store.trades.values()];
    for (const trade of stored) expect(acknowledged.has(trade.id)).toBe(true);
    expect(new Set(stored.map((trade) => trade.order)).size).toBe(stored.length);
    expect((await send('/_sandbox/health', {})).status).toBe(200);
  });
});
