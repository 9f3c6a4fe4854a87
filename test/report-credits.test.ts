/**
 * The integration report with a balance probe (serve --probe, startSandbox({ probe })): each
 * callback row whose `handled` depends on the merchant's credit is driven to handled and to wrong
 * by what the probe answers; a probe that cannot be read, or answers too slowly, leaves rows seen
 * with the reason and never makes them wrong; without a probe nothing changes and the report says
 * credits were not checked. Through the app (app.request()) with a small merchant app (callback
 * receiver and probe) on 127.0.0.1, and once through startSandbox().
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sign } from '../src/auth/signature.js';
import type { CallbackEvent } from '../src/store/callback-records.js';
import { parseOptions } from '../src/sandbox.js';
import { startSandbox } from '../src/programmatic/start-sandbox.js';
import { reportJunit, reportMarkdown } from '../src/report/report-formats.js';
import { serverReport } from '../src/report/server-report.js';
import { type CoverageRow, type IntegrationReport, integrationReportSchema } from '../src/report/report-schema.js';
import { CLOSED_PORT } from './callbacks-receiver.js';
import { junitErrors } from './junit-schema.js';
import { DEMO, makeSandbox, p2pBody, type TestSandbox } from './support.js';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** One order in the merchant's ledger, as its probe shows it. */
interface Entry {
  state: string | null;
  credited: number;
  /** Trades already credited (a correct merchant credits a trade once). */
  credited_trades: Set<string>;
}

/** A callback as the merchant's handler sees it. */
interface Callback {
  trade: { id: string; order: string; state: string; amount_cents: number };
  genuine: boolean;
  attempt: number;
  entry: Entry;
}

type Handle = (callback: Callback) => number | Promise<number>;

/** The correct merchant: refuses a wrong signature, credits a confirmed trade once, keeps the state. */
const correct: Handle = ({ trade, genuine, entry }) => {
  if (!genuine) return 401;
  if (trade.state === 'confirmed' && !entry.credited_trades.has(trade.id)) {
    entry.credited_trades.add(trade.id);
    entry.credited += trade.amount_cents;
  }
  entry.state = trade.state;
  return 200;
};

interface Shop {
  callbackUrl: string;
  probeUrl: string;
  ledger: Map<string, Entry>;
  /** Every probe request's path and query, in arrival order. */
  probed: string[];
  /** Replaces how the probe answers (default: the ledger). */
  probe?: (order: string, res: ServerResponse) => void;
}

/** A merchant's test app on 127.0.0.1: POST /callback handled by `handle`, GET /probe?order= from its ledger. */
async function startShop(handle: Handle): Promise<Shop> {
  const shop: Shop = { callbackUrl: '', probeUrl: '', ledger: new Map(), probed: [] };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://shop');
      if (req.method === 'GET') {
        shop.probed.push(`${url.pathname}${url.search}`);
        const order = url.searchParams.get('order') ?? '';
        if (shop.probe) return shop.probe(order, res);
        const entry = shop.ledger.get(order);
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ state: entry?.state ?? null, credited_cents: entry?.credited ?? 0 }));
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      const trade = JSON.parse(body) as Callback['trade'];
      let entry = shop.ledger.get(trade.order);
      if (entry === undefined) {
        entry = { state: null, credited: 0, credited_trades: new Set() };
        shop.ledger.set(trade.order, entry);
      }
      const genuine = req.headers['x-signature'] === sign(DEMO.secret, body);
      const status = await handle({ trade, genuine, attempt: Number(req.headers['x-sandbox-attempt']), entry });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  shop.callbackUrl = `${base}/callback`;
  shop.probeUrl = `${base}/probe`;
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return shop;
}

async function sandbox(probe: string | undefined, options: Parameters<typeof makeSandbox>[0] = {}): Promise<TestSandbox> {
  const t = await makeSandbox({ clock: 'manual', callbackRetries: '1s', callbackTimeout: '2s', ...(probe !== undefined ? { probe } : {}), ...options });
  cleanups.push(() => t.close());
  return t;
}

async function report(t: TestSandbox, path = '/_sandbox/report'): Promise<IntegrationReport> {
  const res = await t.app.request(path);
  expect(res.status).toBe(200);
  return integrationReportSchema.parse(await res.json());
}

/** The demo merchant's row `id`; GET /_sandbox/report waits for the probe reads under way. */
async function row(t: TestSandbox, id: CoverageRow['id']): Promise<CoverageRow> {
  const rows = (await report(t)).coverage.find((m) => m.merchant === DEMO.id)?.rows ?? [];
  return rows.find((r) => r.id === id) ?? { id, status: 'not_seen' };
}

async function create(t: TestSandbox, shop: Shop, order?: string): Promise<string> {
  const created = await t.post('/api/v1/trades/deposit/create', p2pBody({ callback_url: shop.callbackUrl, ...(order !== undefined ? { order } : {}) }));
  expect(created.status).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/** Resolves when the dispatcher tells `name` for a callback of `trade` (listening from now on: no fixed wait). */
function when(t: TestSandbox, name: 'delivered' | 'failed' | 'attempt', trade: string): Promise<CallbackEvent> {
  return new Promise((resolve) => {
    const listener = (event: CallbackEvent) => {
      if (event.trade !== trade) return;
      t.sandbox.callbacks.off(name, listener);
      resolve(event);
    };
    t.sandbox.callbacks.on(name, listener);
  });
}

/** Moves a trade to `state` and waits until its callback was delivered. */
async function settle(t: TestSandbox, trade: string, state: 'confirmed' | 'canceled' | 'expired'): Promise<void> {
  const delivered = when(t, 'delivered', trade);
  t.sandbox.lifecycle.transition(trade, state, 'admin');
  await t.sandbox.scheduler.advance(0);
  await delivered;
}

/** Creates an order of a bundled callback scenario (confirms on its own after 5 s of sandbox time) and waits until delivered. */
async function scenario(t: TestSandbox, shop: Shop, order: string): Promise<string> {
  const id = await create(t, shop, order);
  const delivered = when(t, 'delivered', id);
  await t.sandbox.scheduler.advance(5_000);
  await delivered;
  return id;
}

describe('callback.confirmed, callback.canceled, callback.expired with a balance probe', () => {
  it('confirmed: handled when the probe shows the amount credited once; wrong when not credited, or credited another amount', async () => {
    const right = await startShop(correct);
    const t = await sandbox(right.probeUrl);
    const id = await create(t, right, 'cr-once');
    await settle(t, id, 'confirmed');
    expect(await row(t, 'callback.confirmed')).toMatchObject({
      id: 'callback.confirmed',
      status: 'handled',
      trade: id,
      detail: 'acknowledged with 2xx; the balance probe shows order cr-once credited 31250 once',
      detail_code: 'coverage.credit.right',
      detail_params: { base: 'coverage.acknowledged', order: 'cr-once', shows: 'credit.once', amount: 31250 },
    });
    expect(right.probed).toEqual(['/probe?order=cr-once']);

    const forgetful = await startShop(({ genuine }) => (genuine ? 200 : 401));
    const u = await sandbox(forgetful.probeUrl);
    const lost = await create(u, forgetful, 'cr-none');
    await settle(u, lost, 'confirmed');
    expect(await row(u, 'callback.confirmed')).toMatchObject({
      status: 'wrong',
      trade: lost,
      detail: expect.stringContaining('acknowledged with 2xx, but the balance probe shows order cr-none not credited (credited_cents 0, state null): credit amount_cents'),
    });

    const rounding = await startShop((callback) => {
      callback.entry.credited = Math.round(callback.trade.amount_cents / 100) * 100;
      return 200;
    });
    const v = await sandbox(rounding.probeUrl);
    const odd = await create(v, rounding, 'cr-odd');
    await settle(v, odd, 'confirmed');
    expect(await row(v, 'callback.confirmed')).toMatchObject({ status: 'wrong', trade: odd, detail: expect.stringContaining("credited 31300, but the trade's amount_cents is 31250") });
    expect((await report(v)).total).toBe(0); // a wrong credit is a coverage row, not a counted HTTP mistake
  });

  for (const state of ['canceled', 'expired'] as const) {
    it(`${state}: handled when the probe shows nothing credited; wrong when it was credited`, async () => {
      const right = await startShop(correct);
      const t = await sandbox(right.probeUrl);
      const id = await create(t, right);
      await settle(t, id, state);
      expect(await row(t, `callback.${state}`)).toMatchObject({ status: 'handled', trade: id, detail: expect.stringMatching(/; the balance probe shows order .* nothing credited$/) });

      const greedy = await startShop(({ trade, entry }) => {
        entry.credited += trade.amount_cents; // credits whatever the state says
        return 200;
      });
      const u = await sandbox(greedy.probeUrl);
      const paid = await create(u, greedy);
      await settle(u, paid, state);
      expect(await row(u, `callback.${state}`)).toMatchObject({
        status: 'wrong',
        trade: paid,
        detail: expect.stringContaining(`credited 31250 although the trade is ${state}, state null: credit only when a genuine callback says "confirmed"`),
      });
    });
  }
});

describe('the scenario rows with a balance probe', () => {
  /** Credits every genuine "confirmed" it gets: no de-duplication at all. */
  const noDedup: Handle = ({ trade, genuine, entry }) => {
    if (!genuine) return 401;
    if (trade.state === 'confirmed') entry.credited += trade.amount_cents;
    entry.state = trade.state;
    return 200;
  };

  it('callback.duplicate (sbx-dup-): handled when credited once; wrong, naming the double credit, when the repeat was credited too', async () => {
    const right = await startShop(correct);
    const t = await sandbox(right.probeUrl);
    const id = await scenario(t, right, 'sbx-dup-credit-1');
    expect(await row(t, 'callback.duplicate')).toMatchObject({
      status: 'handled',
      trade: id,
      detail: 'both deliveries of the callback were acknowledged with 2xx; the balance probe shows order sbx-dup-credit-1 credited 31250 once',
    });

    const naive = await startShop(noDedup);
    const u = await sandbox(naive.probeUrl);
    const twice = await scenario(u, naive, 'sbx-dup-credit-2');
    expect(await row(u, 'callback.duplicate')).toMatchObject({
      status: 'wrong',
      trade: twice,
      detail: expect.stringContaining('the balance probe shows order sbx-dup-credit-2 credited 31250 twice (62500): the receiver does not de-duplicate'),
    });
    // Credited exactly once is what callback.confirmed asks too.
    expect(await row(u, 'callback.confirmed')).toMatchObject({ status: 'wrong', trade: twice });
  });

  it('callback.overlapping (sbx-race-): handled when credited once; wrong, naming the race, when both overlapping deliveries credited', async () => {
    const right = await startShop(correct);
    const t = await sandbox(right.probeUrl);
    const id = await create(t, right, 'sbx-race-credit-1');
    await settle(t, id, 'confirmed');
    expect(await row(t, 'callback.overlapping')).toMatchObject({ status: 'handled', trade: id, detail: expect.stringContaining('credited 31250 once') });

    // Checks, then writes once both overlapping deliveries have arrived: both pass the check.
    let arrived = 0;
    let bothArrived!: () => void;
    const both = new Promise<void>((resolve) => (bothArrived = resolve));
    const racy = await startShop(async ({ trade, genuine, entry }) => {
      if (!genuine) return 401;
      const already = entry.credited_trades.has(trade.id);
      if (++arrived === 2) bothArrived();
      await both;
      if (trade.state === 'confirmed' && !already) {
        entry.credited_trades.add(trade.id);
        entry.credited += trade.amount_cents;
      }
      return 200;
    });
    const u = await sandbox(racy.probeUrl);
    const raced = await create(u, racy, 'sbx-race-credit-2');
    await settle(u, raced, 'confirmed');
    expect(await row(u, 'callback.overlapping')).toMatchObject({
      status: 'wrong',
      trade: raced,
      detail: expect.stringContaining('credited 31250 twice (62500): two deliveries of one event overlapped and both credited'),
    });
  });

  it('callback.retry_after_failure (sbx-flaky- and a receiver that fails once): handled when credited once; wrong when the failed attempt credited too', async () => {
    const right = await startShop(correct);
    const t = await sandbox(right.probeUrl, { callbackRetries: '1s,1s,1s' });
    const id = await create(t, right, 'sbx-flaky-credit-1');
    const delivered = when(t, 'delivered', id);
    await t.sandbox.scheduler.advance(5_000);
    for (let retry = 0; retry < 3; retry++) await t.sandbox.scheduler.advance(1_000);
    await delivered;
    expect(await row(t, 'callback.retry_after_failure')).toMatchObject({
      status: 'handled',
      trade: id,
      detail: 'acknowledged after a failed attempt; the balance probe shows order sbx-flaky-credit-1 credited 31250 once',
    });

    // Credits, then fails to answer 2xx (its database commit came after the credit); the retry credits again.
    const sloppy = await startShop(({ trade, genuine, attempt, entry }) => {
      if (!genuine) return 401;
      if (trade.state === 'confirmed') entry.credited += trade.amount_cents;
      return attempt === 1 ? 500 : 200;
    });
    const u = await sandbox(sloppy.probeUrl);
    const twice = await create(u, sloppy);
    const failed = when(u, 'attempt', twice);
    u.sandbox.lifecycle.transition(twice, 'confirmed', 'admin');
    await u.sandbox.scheduler.advance(0);
    await failed;
    await u.sandbox.callbacks.idle(); // the retry runs only once the failed attempt is saved
    const delivered2 = when(u, 'delivered', twice);
    await u.sandbox.scheduler.advance(1_000);
    await delivered2;
    expect(await row(u, 'callback.retry_after_failure')).toMatchObject({ status: 'wrong', trade: twice, detail: expect.stringContaining('credited 31250 twice (62500)') });
  });

  it('callback.bad_signature (sbx-badsig-): handled when the forged copy got a 4xx and the probe shows one credit; wrong when the forged copy was credited before it was refused', async () => {
    const right = await startShop(correct);
    const t = await sandbox(right.probeUrl);
    const id = await create(t, right, 'sbx-badsig-credit-1');
    await settle(t, id, 'confirmed');
    expect(await row(t, 'callback.bad_signature')).toMatchObject({
      status: 'handled',
      trade: id,
      detail: 'the copy with a wrong X-Signature was refused (HTTP 401); the balance probe shows order sbx-badsig-credit-1 credited 31250 once',
    });

    const creditsFirst = await startShop(({ trade, genuine, entry }) => {
      if (trade.state === 'confirmed') entry.credited += trade.amount_cents;
      return genuine ? 200 : 401;
    });
    const u = await sandbox(creditsFirst.probeUrl);
    const forged = await create(u, creditsFirst, 'sbx-badsig-credit-2');
    await settle(u, forged, 'confirmed');
    expect(await row(u, 'callback.bad_signature')).toMatchObject({
      status: 'wrong',
      trade: forged,
      detail: expect.stringContaining('credited 31250 twice (62500): the copy with a wrong X-Signature was credited too'),
    });
  });
});

describe('a probe that cannot be read makes no false alarm', () => {
  it('a closed port: the callback rows stay seen, saying why the credit was not checked; no row is wrong', async () => {
    const shop = await startShop(correct);
    const t = await sandbox(`http://127.0.0.1:${CLOSED_PORT}/probe`);
    const id = await create(t, shop, 'cr-closed');
    await settle(t, id, 'confirmed');
    expect(await row(t, 'callback.confirmed')).toMatchObject({
      id: 'callback.confirmed',
      status: 'seen',
      trade: id,
      detail: 'acknowledged with 2xx; credit not checked: the balance probe could not be read (ECONNREFUSED)',
      detail_code: 'coverage.credit.unchecked',
    });
    const rows = (await report(t)).coverage[0]!.rows;
    expect(rows.filter((r) => r.status === 'wrong')).toEqual([]);
  });

  it('a probe that never answers: cut off at the callback timeout, seen with the reason; the create and the delivery never waited for it', async () => {
    const shop = await startShop(correct);
    const held: ServerResponse[] = [];
    let arrived: () => void = () => undefined;
    const probing = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    shop.probe = (_order, res) => {
      held.push(res); // answers nothing until the test ends
      arrived();
    };
    cleanups.push(() => {
      for (const res of held) res.destroy();
    });
    const t = await sandbox(shop.probeUrl, { callbackTimeout: '500ms' });
    const id = await create(t, shop, 'cr-slow');
    await settle(t, id, 'confirmed');
    // The callback was delivered; the probe has the read and does not answer; a create goes through meanwhile.
    await probing;
    expect((await t.post('/api/v1/trades/deposit/create', p2pBody({ order: 'cr-while-probing' }))).status).toBe(201);
    expect(held[0]!.writableEnded).toBe(false);
    expect(await row(t, 'callback.confirmed')).toMatchObject({
      id: 'callback.confirmed',
      status: 'seen',
      trade: id,
      detail: 'acknowledged with 2xx; credit not checked: the balance probe did not answer within 500ms',
      detail_code: 'coverage.credit.unchecked',
    });
    expect(shop.probed).toEqual(['/probe?order=cr-slow']);
  });

  it('a probe that answers 500 or not the protocol: seen with what it answered', async () => {
    const shop = await startShop(correct);
    shop.probe = (order, res) => void (order === 'cr-500' ? res.writeHead(500).end('boom') : res.writeHead(200).end('{"credited": 1}'));
    const t = await sandbox(shop.probeUrl);
    const id = await create(t, shop, 'cr-500');
    await settle(t, id, 'canceled');
    expect(await row(t, 'callback.canceled')).toMatchObject({ status: 'seen', detail: 'acknowledged with 2xx; credit not checked: the balance probe answered 500' });
    const other = await create(t, shop, 'cr-bad-json');
    await settle(t, other, 'expired');
    expect(await row(t, 'callback.expired')).toMatchObject({ status: 'seen', trade: other, detail: 'acknowledged with 2xx; credit not checked: the balance probe answered state that is not right' });
  });
});

describe('without a probe, and the placeholders', () => {
  it('without a probe the rows are judged by the HTTP answers as before, nothing is read, and the report says credits were not checked', async () => {
    const shop = await startShop(() => 200); // credits nothing, and is still handled without a probe
    const t = await sandbox(undefined);
    const id = await create(t, shop);
    await settle(t, id, 'confirmed');
    const coverage = (await report(t)).coverage[0]!;
    expect(coverage.credits).toBe('not_checked');
    expect(coverage.rows.find((r) => r.id === 'callback.confirmed')).toEqual({
      id: 'callback.confirmed',
      status: 'handled',
      trade: id,
      detail: 'acknowledged with 2xx',
      detail_code: 'coverage.acknowledged',
      detail_params: {},
    });
    expect(shop.probed).toEqual([]);
    const md = reportMarkdown(await report(t));
    expect(md).toContain('Credits not checked: callback rows were judged by the HTTP answers alone; start the sandbox with --probe <url> to check them.');
    const xml = reportJunit(await report(t));
    expect(xml).toContain('<property name="credits" value="not_checked"/>');
    expect(await junitErrors(xml)).toEqual([]);
  });

  it("{merchant} and {workspace} in --probe name the trade's merchant and workspace; the report says credits were checked", async () => {
    const shop = await startShop(correct);
    const t = await sandbox(`${shop.probeUrl}/{workspace}/{merchant}?worker={workspace}`);
    expect((await t.app.request('/w/qa-credits/_sandbox/report')).status).toBe(200); // loads the workspace
    const ws = t.server.workspaces.ready('qa-credits')!;
    const created = await t.post('/w/qa-credits/api/v1/trades/deposit/create', p2pBody({ order: 'cr-ws', callback_url: shop.callbackUrl }));
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const delivered = new Promise<void>((resolve) => ws.callbacks.once('delivered', () => resolve()));
    ws.lifecycle.transition(id, 'confirmed', 'admin');
    await ws.scheduler.advance(0);
    await delivered;
    const root = await report(t);
    expect(root.coverage).toHaveLength(1);
    expect(root.coverage[0]).toMatchObject({ workspace: 'qa-credits', credits: 'checked' });
    expect(root.coverage[0]!.rows.find((r) => r.id === 'callback.confirmed')).toMatchObject({ status: 'handled', trade: id });
    expect(shop.probed).toEqual([`/probe/qa-credits/${DEMO.id}?worker=qa-credits&order=cr-ws`]); // the probe URL's own query is kept
    expect(reportMarkdown(root)).toContain('Credits checked: a callback row is handled only when the balance probe (serve --probe) showed the right credit.');
  });

  it('a --probe that is no http(s) URL, or holds another placeholder, is refused with what to write', () => {
    expect(() => parseOptions({ probe: 'ftp://127.0.0.1/probe' })).toThrow(/--probe: must be an absolute http\(s\) URL of your balance probe \(e\.g\. http:\/\/127\.0\.0\.1:3000\/probe/);
    expect(() => parseOptions({ probe: 'http://127.0.0.1:3000/probe?order={order}' })).toThrow('--probe: holds {order}, which is no placeholder: use {merchant} or {workspace}');
    expect(parseOptions({ probe: 'http://127.0.0.1:3000/probe/{merchant}' }).probe).toBe('http://127.0.0.1:3000/probe/{merchant}');
    expect(parseOptions({ probe: '' }).probe).toBeUndefined();
  });
});

describe('startSandbox({ probe }) and closing', () => {
  it('closing the sandbox waits for the probe reads under way, so serve --report writes the credits of the last callbacks', async () => {
    const shop = await startShop(correct);
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    let arrived: () => void = () => undefined;
    const probing = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    shop.probe = (order, res) => {
      arrived();
      // Answers once the sandbox is closing.
      void answered.then(() => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ state: 'confirmed', credited_cents: shop.ledger.get(order)?.credited ?? 0 })));
    };
    const t = await makeSandbox({ clock: 'manual', probe: shop.probeUrl });
    const id = await create(t, shop, 'cr-closing');
    await settle(t, id, 'confirmed');
    await probing;
    const closed = t.server.close();
    answer();
    await closed;
    const coverage = serverReport(t.sandbox, t.server.workspaces).coverage[0]!;
    expect(coverage.rows.find((r) => r.id === 'callback.confirmed')).toMatchObject({ status: 'handled', trade: id, detail: expect.stringContaining('credited 31250 once') });
  });

  it('a sandbox started in-process with a probe checks credits: handled with one credit, and the report says checked', async () => {
    const shop = await startShop(correct);
    const running = await startSandbox({ probe: shop.probeUrl, clock: 'manual' });
    cleanups.push(() => running.close());
    const created = await fetch(`${running.url}/api/v1/trades/deposit/create`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token },
      body: JSON.stringify(p2pBody({ order: 'cr-started', callback_url: shop.callbackUrl })),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await running.admin.transition(id, 'confirmed');
    await running.admin.advanceClock(0);
    await running.callbacks.waitFor({ trade: id, state: 'confirmed' });
    const coverage = (await running.admin.report()).coverage[0]!;
    expect(coverage.credits).toBe('checked');
    expect(coverage.rows.find((r) => r.id === 'callback.confirmed')).toMatchObject({ status: 'handled', trade: id, detail: expect.stringContaining('credited 31250 once') });
  });
});
