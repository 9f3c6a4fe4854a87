import { afterEach, describe, expect, it } from 'vitest';
import type { AdminTrade } from '../../src/admin/admin-trade.js';
import { createApp } from '../../src/app.js';
import type { CallbackEvent } from '../../src/store/callback-records.js';
import type { Job } from '../../src/store/jobs.js';
import type { SandboxOptionsInput } from '../../src/config/options.js';
import { TIMELINE_JOB } from '../../src/lifecycle/timeline.js';
import { createServer } from '../../src/server/server.js';
import type { StoreAdapter } from '../../src/store/adapter.js';
import type { Change } from '../../src/store/table.js';
import type { HistoryEntry } from '../../src/trades/trade.js';
import { startReceiver, type Receiver } from '../callbacks-receiver.js';
import { DEMO, SECOND, ecomBody, errorOf, makeSandbox, p2pBody, TRADE_KEYS, type TestSandbox } from '../support.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandbox(options: SandboxOptionsInput = {}): Promise<TestSandbox> {
  const t = await makeSandbox({ clock: 'manual', ...options });
  cleanups.push(() => t.close());
  return t;
}

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  cleanups.push(() => r.close());
  return r;
}

async function create(t: TestSandbox, body: Record<string, unknown> = p2pBody(), token: string = DEMO.token): Promise<{ id: string; order: string }> {
  const path = body['type'] === 'ecom' ? '/api/v1/trades/deposit/build' : '/api/v1/trades/deposit/create';
  const res = await t.post(path, body, { 'X-Auth': token });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; order: string };
}

const postJson = (t: TestSandbox, path: string, body: unknown) =>
  t.app.request(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });

const json = async <T>(res: Response | Promise<Response>): Promise<T> => (await (await res).json()) as T;

const ADMIN_KEYS = [...TRADE_KEYS, 'type', 'customer', 'callback_url', 'return_url', 'scenario', 'created_at', 'updated_at', 'allowed'];

describe('GET /_sandbox/trades', () => {
  it('lists trades newest first as AdminTrade objects, with the total', async () => {
    const t = await sandbox();
    expect(await json(t.get('/_sandbox/trades'))).toEqual({ trades: [], total: 0 });
    const a = await create(t, p2pBody({ customer: 'cust-1', callback_url: 'http://127.0.0.1:9/cb', return_url: 'https://shop.example/back' }));
    const b = await create(t, ecomBody());

    const res = await t.get('/_sandbox/trades');
    expect(res.status).toBe(200);
    const { trades, total } = await json<{ trades: AdminTrade[]; total: number }>(res);
    expect(total).toBe(2);
    expect(trades.map((trade) => trade.id)).toEqual([b.id, a.id]);
    const [ecom, p2p] = trades;
    expect(Object.keys(p2p!)).toEqual(ADMIN_KEYS);
    expect(p2p).toMatchObject({
      id: a.id,
      merchant: DEMO.id,
      state: 'created',
      type: 'any_bank',
      customer: 'cust-1',
      callback_url: 'http://127.0.0.1:9/cb',
      return_url: 'https://shop.example/back',
      scenario: null,
      allowed: ['confirmed', 'canceled', 'expired'],
    });
    expect(Object.keys(p2p!.payment_data)).toEqual(['name', 'number', 'bank_name', 'url']);
    const get = await json<Record<string, unknown>>(t.get(`/api/v1/trades/${DEMO.id}/${a.id}`));
    expect(Object.fromEntries(Object.entries(p2p!).filter(([key]) => (TRADE_KEYS as readonly string[]).includes(key)))).toEqual(get);
    expect(ecom).toMatchObject({ state: 'ecom', type: 'ecom', customer: null, callback_url: null, return_url: null });
    expect(Object.keys(ecom!.payment_data)).toEqual(['name', 'number', 'bank_name', 'url']);
  });

  it('filters by merchant, state and exact order, and pages with limit and offset', async () => {
    const t = await sandbox();
    const first = await create(t);
    const second = await create(t);
    const other = await create(t, p2pBody({ merchant: SECOND.id }), SECOND.token);
    await postJson(t, `/_sandbox/trades/${second.id}/transition`, { state: 'confirmed' });

    const ids = async (query: string) => (await json<{ trades: AdminTrade[]; total: number }>(t.get(`/_sandbox/trades?${query}`))).trades.map((x) => x.id);
    expect(await ids(`merchant=${SECOND.id}`)).toEqual([other.id]);
    expect(await ids(`merchant=${DEMO.id.toUpperCase()}`)).toEqual([second.id, first.id]);
    expect(await ids('state=confirmed')).toEqual([second.id]);
    expect(await ids(`state=created&merchant=${DEMO.id}`)).toEqual([first.id]);
    expect(await ids(`order=${encodeURIComponent(first.order)}`)).toEqual([first.id]);
    expect(await ids(`order=${encodeURIComponent(first.order.slice(0, -1))}`)).toEqual([]);
    expect(await json(t.get('/_sandbox/trades?limit=1&offset=1'))).toMatchObject({ total: 3, trades: [expect.objectContaining({ id: second.id })] });
    expect(await json(t.get('/_sandbox/trades?offset=5'))).toEqual({ trades: [], total: 3 });
    expect(await ids('merchant=&state=&order=&limit=&offset=')).toEqual([other.id, second.id, first.id]);
  });

  it('refuses unknown states and bad page sizes with a 422 naming the field', async () => {
    const t = await sandbox();
    const bad = await t.get('/_sandbox/trades?state=paid');
    expect(bad.status).toBe(422);
    expect(await errorOf(bad)).toMatchObject({ code: 'validation_failed', details: [{ field: 'state', message: expect.stringContaining('created, ecom, confirmed, canceled, expired') }] });
    for (const query of ['limit=0', 'limit=1001', 'limit=ten', 'offset=-1']) {
      const res = await t.get(`/_sandbox/trades?${query}`);
      expect(res.status, query).toBe(422);
      expect((await errorOf(res)).details[0]!.field).toBe(query.split('=')[0]);
    }
    expect((await t.get('/_sandbox/trades?limit=1000')).status).toBe(200);
  });
});

describe('GET /_sandbox/trades/:id', () => {
  it('answers the trade, its history, its callbacks (oldest first) and its pending jobs', async () => {
    const r = await receiver();
    const t = await sandbox();
    const trade = await create(t, p2pBody({ callback_url: `${r.url}/cb` }));
    t.sandbox.scheduler.schedule(TIMELINE_JOB, t.sandbox.clock.now() + 60_000, { state: 'expired' }, trade.id);
    await postJson(t, `/_sandbox/trades/${trade.id}/transition`, { state: 'confirmed', note: 'paid at the counter' });
    await t.sandbox.scheduler.advance(0);
    const [event] = t.sandbox.callbacks.forTrade(trade.id);
    t.sandbox.callbacks.replay(event!.id);

    const res = await t.get(`/_sandbox/trades/${trade.id}`);
    expect(res.status).toBe(200);
    const body = await json<{ trade: AdminTrade; history: HistoryEntry[]; callbacks: CallbackEvent[]; pending: Job[] }>(res);
    expect(Object.keys(body)).toEqual(['trade', 'history', 'callbacks', 'pending']);
    expect(body.trade).toMatchObject({ id: trade.id, state: 'confirmed', allowed: [] });
    const now = t.sandbox.clock.nowIso();
    expect(body.history).toEqual([
      { from: null, to: 'created', at: now, cause: 'create' },
      { from: 'created', to: 'confirmed', at: now, cause: 'admin', note: 'paid at the counter' },
    ]);
    expect(body.callbacks.map((e) => [e.seq, e.status, e.replay_of ?? null])).toEqual([
      [1, 'delivered', null],
      [2, 'pending', event!.id],
    ]);
    expect(body.pending.map((job) => job.kind).sort()).toEqual(['callback', 'transition']);
  });

  it('answers 404 with the envelope for an unknown trade', async () => {
    const t = await sandbox();
    const res = await t.get('/_sandbox/trades/3f0c9a52-0d8e-4b4f-9a57-6f2b8f1f3c11');
    expect(res.status).toBe(404);
    expect(await errorOf(res)).toMatchObject({ code: 'not_found', message: expect.stringContaining('GET /_sandbox/trades') });
  });
});

describe('POST /_sandbox/trades/:id/transition', () => {
  it('moves a trade (cause admin), commits the store before answering, and answers the AdminTrade', async () => {
    const writes: Change[][] = [];
    const adapter: StoreAdapter = { location: 'test', read: async () => null, write: async (changes) => void writes.push([...changes]) };
    const server = await createServer({ inMemory: true, clock: 'manual' }, { adapter });
    cleanups.push(() => server.close());
    const app = createApp(server);
    const sandbox = server.root;
    const created = await app.request('/api/v1/trades/deposit/build', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token },
      body: JSON.stringify(ecomBody()),
    });
    const { id } = (await created.json()) as { id: string };

    const res = await app.request(`/_sandbox/trades/${id}/transition`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ state: 'canceled' }),
    });
    expect(res.status).toBe(200);
    const { trade } = (await res.json()) as { trade: AdminTrade };
    expect(trade).toMatchObject({ id, state: 'canceled', type: 'ecom', allowed: [] });
    expect(Object.keys(trade)).toEqual(ADMIN_KEYS);
    const written = writes.flat().flatMap((c) => (c.op === 'put' && c.table === 'trades' ? [(c.record as unknown as { state: string }).state] : []));
    expect(written).toEqual(['ecom', 'canceled']);
    expect(sandbox.store.trades.get(id)!.history.at(-1)).toMatchObject({ from: 'ecom', to: 'canceled', cause: 'admin' });
  });

  it('answers 409 naming the allowed states when the table does not allow the move', async () => {
    const t = await sandbox();
    const trade = await create(t);
    await postJson(t, `/_sandbox/trades/${trade.id}/transition`, { state: 'expired' });
    const res = await postJson(t, `/_sandbox/trades/${trade.id}/transition`, { state: 'confirmed' });
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toMatchObject({ code: 'transition_not_allowed', allowed: [], message: expect.stringContaining('final state') });

    const fresh = await create(t);
    const same = await postJson(t, `/_sandbox/trades/${fresh.id}/transition`, { state: 'created' });
    expect(same.status).toBe(409);
    expect(await errorOf(same)).toMatchObject({ allowed: ['confirmed', 'canceled', 'expired'] });
    expect(t.sandbox.store.trades.get(fresh.id)!.history).toHaveLength(1);
  });

  it('answers 422 for an unknown or missing state and a body that is not JSON, 404 for an unknown trade', async () => {
    const t = await sandbox();
    const trade = await create(t);
    const unknown = await postJson(t, `/_sandbox/trades/${trade.id}/transition`, { state: 'paid' });
    expect(unknown.status).toBe(422);
    expect(await errorOf(unknown)).toMatchObject({ details: [{ field: 'state' }], message: expect.stringContaining('created, ecom, confirmed, canceled, expired') });
    const missing = await postJson(t, `/_sandbox/trades/${trade.id}/transition`, {});
    expect(missing.status).toBe(422);
    expect((await errorOf(missing)).details[0]!.field).toBe('state');
    const broken = await postJson(t, `/_sandbox/trades/${trade.id}/transition`, '{"state":');
    expect(broken.status).toBe(422);
    expect((await errorOf(broken)).code).toBe('invalid_json');
    const nowhere = await postJson(t, '/_sandbox/trades/3f0c9a52-0d8e-4b4f-9a57-6f2b8f1f3c11/transition', { state: 'confirmed' });
    expect(nowhere.status).toBe(404);
    expect(t.sandbox.store.trades.get(trade.id)!.state).toBe('created');
  });
});

describe('GET /_sandbox/callbacks', () => {
  it('lists events newest first, filtered by trade and status, limited; one event by id; replay', async () => {
    const r = await receiver();
    const t = await sandbox({ callbackRetries: '' });
    const a = await create(t, p2pBody({ callback_url: `${r.url}/a` }));
    const b = await create(t, p2pBody({ callback_url: 'http://127.0.0.1:1/refused' }));
    await postJson(t, `/_sandbox/trades/${a.id}/transition`, { state: 'confirmed' });
    await postJson(t, `/_sandbox/trades/${b.id}/transition`, { state: 'canceled' });
    await t.sandbox.scheduler.advance(0);

    const list = async (query = '') => (await json<{ callbacks: CallbackEvent[] }>(t.get(`/_sandbox/callbacks${query}`))).callbacks;
    const all = await list();
    expect(all.map((e) => [e.trade, e.status])).toEqual([
      [b.id, 'failed'],
      [a.id, 'delivered'],
    ]);
    expect((await list(`?trade=${a.id}`)).map((e) => e.trade)).toEqual([a.id]);
    expect((await list('?status=failed')).map((e) => e.trade)).toEqual([b.id]);
    expect(await list('?status=pending')).toEqual([]);
    expect(await list('?trade=&status=&limit=')).toEqual(all);
    expect(await list('?limit=1')).toHaveLength(1);
    expect((await t.get('/_sandbox/callbacks?status=lost')).status).toBe(422);
    expect((await t.get('/_sandbox/callbacks?limit=0')).status).toBe(422);

    const one = await t.get(`/_sandbox/callbacks/${all[1]!.id}`);
    expect(await json(one)).toEqual({ callback: all[1] });
    expect((await t.get('/_sandbox/callbacks/cb_nothing_1')).status).toBe(404);
    const replay = await t.app.request(`/_sandbox/callbacks/${all[1]!.id}/replay`, { method: 'POST' });
    expect(replay.status).toBe(202);
    expect((await json<{ callback: CallbackEvent }>(replay)).callback).toMatchObject({ replay_of: all[1]!.id, status: 'pending' });
    const missing = await t.app.request('/_sandbox/callbacks/cb_nothing_1/replay', { method: 'POST' });
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).message).toContain('GET /_sandbox/callbacks');
  });
});

describe('the clock routes', () => {
  it('GET /_sandbox/clock tells the mode, the time, the pending jobs and the next due time', async () => {
    const t = await sandbox();
    const now = t.sandbox.clock.now();
    expect(await json(t.get('/_sandbox/clock'))).toEqual({ mode: 'manual', now: new Date(now).toISOString(), pending: 0, next_due: null });
    const trade = await create(t);
    t.sandbox.scheduler.schedule(TIMELINE_JOB, now + 120_000, { state: 'expired' }, trade.id);
    t.sandbox.scheduler.schedule(TIMELINE_JOB, now + 60_000, { state: 'confirmed' }, trade.id);
    expect(await json(t.get('/_sandbox/clock'))).toMatchObject({ pending: 2, next_due: new Date(now + 60_000).toISOString() });
  });

  it('advance runs every step that fell due, in due order, at its own time, before answering', async () => {
    const r = await receiver();
    const t = await sandbox();
    const start = t.sandbox.clock.now();
    const trades = await Promise.all([1, 2, 3].map(() => create(t, p2pBody({ callback_url: `${r.url}/cb` }))));
    const [a, b, c] = trades.map((x) => x.id) as [string, string, string];
    t.sandbox.scheduler.schedule(TIMELINE_JOB, start + 300_000, { state: 'confirmed' }, a);
    t.sandbox.scheduler.schedule(TIMELINE_JOB, start + 120_000, { state: 'canceled' }, b);
    t.sandbox.scheduler.schedule(TIMELINE_JOB, start + 1_200_000, { state: 'expired' }, c);

    const res = await postJson(t, '/_sandbox/clock/advance', { by: '10m' });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ now: new Date(start + 600_000).toISOString(), ran: 4 }); // two steps and their two callbacks
    expect(t.sandbox.store.trades.get(b)!.history.at(-1)).toMatchObject({ to: 'canceled', at: new Date(start + 120_000).toISOString(), cause: 'scenario' });
    expect(t.sandbox.store.trades.get(a)!.history.at(-1)).toMatchObject({ to: 'confirmed', at: new Date(start + 300_000).toISOString() });
    expect(t.sandbox.store.trades.get(c)!.state).toBe('created');
    expect(r.received.map((q) => JSON.parse(q.body).id)).toEqual([b, a]);

    expect(await json(postJson(t, '/_sandbox/clock/advance', { by: 600_000 }))).toMatchObject({ ran: 2 });
    expect(t.sandbox.store.trades.get(c)!.state).toBe('expired');
  });

  it('advance refuses a missing, negative or unreadable duration with a 422', async () => {
    const t = await sandbox();
    const before = t.sandbox.clock.now();
    for (const body of [{}, { by: 'soon' }, { by: '-5m' }, { by: -1 }, { by: '20000d' }, { by: null }]) {
      const res = await postJson(t, '/_sandbox/clock/advance', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect((await errorOf(res)).details[0]!.field).toBe('by');
    }
    expect(t.sandbox.clock.now()).toBe(before);
  });

  it('advance takes Russian units, and a unit that is none gets every unit listed', async () => {
    const t = await sandbox();
    const start = t.sandbox.clock.now();
    for (const by of ['10м', '10 мин', '2 ч', '1 д', '30 сек']) expect((await postJson(t, '/_sandbox/clock/advance', { by })).status, by).toBe(200);
    expect(t.sandbox.clock.now() - start).toBe(600_000 + 600_000 + 7_200_000 + 86_400_000 + 30_000);
    const res = await postJson(t, '/_sandbox/clock/advance', { by: '10 лет' });
    expect(res.status).toBe(422);
    const error = await errorOf(res);
    expect(error.details[0]).toMatchObject({ field: 'by' });
    expect(error.message).toContain('got "10 лет": the units are ms, s, m, h, d, w, y');
    expect(error.message).toContain('in Russian мс, с (сек, секунд), м (мин, минут), ч (час, часа, часов), д (дн, день, дня, дней)');
  });

  it('with a real clock, advance moves its offset', async () => {
    const t = await sandbox({ clock: 'real' });
    const before = t.sandbox.clock.now();
    const { now } = await json<{ now: string }>(postJson(t, '/_sandbox/clock/advance', { by: '1h' }));
    expect(Date.parse(now)).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(await json(t.get('/_sandbox/clock'))).toMatchObject({ mode: 'real' });
    expect(t.sandbox.clock.now()).toBeGreaterThanOrEqual(before + 3_600_000);
  });
});

describe('POST /_sandbox/reset', () => {
  it('removes trades, callbacks and jobs, keeps the clock, and the sandbox works on', async () => {
    const r = await receiver();
    const t = await sandbox();
    const trade = await create(t, p2pBody({ callback_url: `${r.url}/cb` }));
    await create(t);
    t.sandbox.scheduler.schedule(TIMELINE_JOB, t.sandbox.clock.now() + 60_000, { state: 'expired' }, trade.id);
    await postJson(t, `/_sandbox/trades/${trade.id}/transition`, { state: 'confirmed' });
    await t.sandbox.scheduler.advance(0);
    await t.sandbox.scheduler.advance(5_000);
    const now = t.sandbox.clock.nowIso();

    const res = await t.app.request('/_sandbox/reset', { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ status: 'reset', removed: { trades: 2, callbacks: 1, jobs: 1 } });
    expect(await json(t.get('/_sandbox/trades'))).toEqual({ trades: [], total: 0 });
    expect(await json(t.get('/_sandbox/callbacks'))).toEqual({ callbacks: [] });
    expect(await json(t.get('/_sandbox/clock'))).toEqual({ mode: 'manual', now, pending: 0, next_due: null });

    const again = await create(t, p2pBody({ callback_url: `${r.url}/cb` }));
    await postJson(t, `/_sandbox/trades/${again.id}/transition`, { state: 'confirmed' });
    await t.sandbox.scheduler.advance(0);
    expect(t.sandbox.callbacks.forTrade(again.id)).toEqual([expect.objectContaining({ seq: 1, status: 'delivered' })]);
  });
});

describe('GET /_sandbox/scenarios and health', () => {
  it('lists the loaded scenarios in match order', async () => {
    const t = await sandbox();
    const { scenarios } = await json<{ scenarios: Array<{ name: string; source: string; description: string; match: string; magic: string }> }>(t.get('/_sandbox/scenarios'));
    expect(scenarios).toEqual(t.sandbox.scenarios.list());
    expect(scenarios.length).toBeGreaterThan(0);
    for (const scenario of scenarios) expect(Object.keys(scenario)).toEqual(expect.arrayContaining(['name', 'source', 'description', 'match', 'magic']));
  });

  it('health answers the full body when no admin token is set', async () => {
    const t = await sandbox();
    await create(t);
    expect(await json(t.get('/_sandbox/health'))).toEqual({
      status: 'ok',
      trades: 1,
      auth: 'either',
      clock: { mode: 'manual', now: t.sandbox.clock.nowIso() },
      store: 'memory',
      create_delays: 0,
      rss_mb: expect.any(Number),
    });
  });
});
