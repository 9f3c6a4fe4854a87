/**
 * Integration coverage (GET /_sandbox/report `coverage`): each row driven to each of its
 * statuses, through the app (app.request(), no port) and real receivers on 127.0.0.1 where the
 * sandbox can make it happen, and by feeding the counter where the scenario lives elsewhere.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sign } from '../../src/auth/signature.js';
import { coverageSuites, failingRows } from '../../src/report/coverage-formats.js';
import { MistakeCounter } from '../../src/report/mistake-counter.js';
import { reportJunit, reportMarkdown } from '../../src/report/report-formats.js';
import { type CoverageRow, type IntegrationReport, integrationReportSchema } from '../../src/report/report-schema.js';
import { type Receiver, startReceiver } from '../callbacks-receiver.js';
import { junitErrors } from '../junit-schema.js';
import { DEMO, ecomBody, makeSandbox, p2pBody, type TestSandbox } from '../support.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandbox(options: Parameters<typeof makeSandbox>[0] = {}): Promise<TestSandbox> {
  const t = await makeSandbox({ clock: 'manual', callbackRetries: '1s', callbackTimeout: '500ms', ...options });
  cleanups.push(() => t.close());
  return t;
}

async function receiver(respond: Receiver['respond']): Promise<Receiver> {
  const r = await startReceiver(respond);
  cleanups.push(() => r.close());
  return r;
}

async function report(t: TestSandbox): Promise<IntegrationReport> {
  const res = await t.app.request('/_sandbox/report');
  expect(res.status).toBe(200);
  return integrationReportSchema.parse(await res.json());
}

/** The demo merchant's row `id` (not_seen when the merchant has no coverage yet). */
async function row(t: TestSandbox, id: CoverageRow['id']): Promise<CoverageRow> {
  const rows = (await report(t)).coverage.find((m) => m.merchant === DEMO.id)?.rows ?? [];
  return rows.find((r) => r.id === id) ?? { id, status: 'not_seen' };
}

const verifying = (q: { headers: Record<string, unknown>; body: string }, res: import('node:http').ServerResponse) =>
  void res.writeHead(q.headers['x-signature'] === sign(DEMO.secret, q.body) ? 200 : 401).end();

/** Resolves when the dispatcher tells `name` for a callback of `trade` (listening from now on). */
function next(t: TestSandbox, name: 'delivered' | 'failed' | 'attempt', trade: string): Promise<void> {
  return new Promise((resolve) => {
    const listener = (event: { trade: string }) => {
      if (event.trade !== trade) return;
      t.sandbox.callbacks.off(name, listener);
      resolve();
    };
    t.sandbox.callbacks.on(name, listener);
  });
}

async function createWith(t: TestSandbox, overrides: Record<string, unknown>): Promise<string> {
  const created = await t.post('/api/v1/trades/deposit/create', p2pBody(overrides));
  expect(created.status).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

describe('coverage rows of create', () => {
  it('create.accepted, refused_401, refused_422, duplicate_order: not_seen until met, then seen; every row listed in order', async () => {
    const t = await sandbox();
    expect((await report(t)).coverage).toEqual([]);
    await createWith(t, { order: 'cov-1' });
    const first = (await report(t)).coverage;
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ merchant: DEMO.id, name: 'Demo Shop' });
    expect(first[0]!.rows.map((r) => r.id)).toEqual([
      'create.accepted',
      'create.refused_401',
      'create.refused_422',
      'create.duplicate_order',
      'create.lost_answer',
      'callback.confirmed',
      'callback.canceled',
      'callback.expired',
      'callback.retry_after_failure',
      'callback.duplicate',
      'callback.overlapping',
      'callback.bad_signature',
      'payment.3ds_declined',
    ]);
    expect(await row(t, 'create.accepted')).toMatchObject({ status: 'seen' });
    for (const id of ['create.refused_401', 'create.refused_422', 'create.duplicate_order'] as const) expect((await row(t, id)).status).toBe('not_seen');
    expect((await t.post('/api/v1/trades/deposit/create', p2pBody(), { 'X-Auth': 'wrong' })).status).toBe(401);
    expect((await t.post('/api/v1/trades/deposit/create', p2pBody({ amount_cents: 'x' }))).status).toBe(422);
    expect((await t.post('/api/v1/trades/deposit/create', p2pBody({ order: 'cov-1' }))).status).toBe(422);
    for (const id of ['create.refused_401', 'create.refused_422', 'create.duplicate_order'] as const) expect((await row(t, id)).status).toBe('seen');
  });

  it('a refusal a scenario forced is met (seen) but no mistake', async () => {
    const t = await sandbox();
    expect((await t.post('/api/v1/trades/deposit/create', p2pBody({ order: 'sbx-unauth-cov' }))).status).toBe(401);
    expect((await t.post('/api/v1/trades/deposit/create', p2pBody({ order: 'sbx-reject-cov' }))).status).toBe(422);
    expect((await row(t, 'create.refused_401')).status).toBe('seen');
    expect((await row(t, 'create.refused_422')).status).toBe('seen');
    expect((await report(t)).total).toBe(0);
  });

  it.each<{ how: string; order: string; headers: Record<string, string> }>([
    { how: 'an sbx-lost- order', order: 'sbx-lost-cov-1', headers: {} },
    { how: 'the X-Sandbox-Scenario header picking lost-answer for an order of any name', order: 'plain-order-1', headers: { 'X-Sandbox-Scenario': 'lost-answer' } },
  ])('create.lost_answer through the app, by $how: the create is seen; its retry with the same order is handled, and no duplicate-order mistake', async ({ order, headers }) => {
    const t = await sandbox();
    // Saved, and no answer at all (under app.request(), a network error: status 0).
    expect((await t.post('/api/v1/trades/deposit/create', p2pBody({ order }), headers)).status).toBe(0);
    const id = t.sandbox.store.trades.findUnique(DEMO.id, order)?.id;
    expect(id).toBeDefined();
    expect(await row(t, 'create.lost_answer')).toMatchObject({ status: 'seen', trade: id });
    expect((await t.post('/api/v1/trades/deposit/create', p2pBody({ order }))).status).toBe(422);
    expect(await row(t, 'create.lost_answer')).toMatchObject({ status: 'handled', trade: id });
    expect((await report(t)).total).toBe(0);
  });

  it('create.lost_answer, fed to the counter as the lost-answer and late-answer scenarios will: seen, handled (201 or 422 on the retry), wrong (a new order with the same amount and customer within 5 minutes)', () => {
    const M = DEMO.id;
    const status = (counter: MistakeCounter) => counter.report(() => 'Demo Shop').coverage[0]?.rows.find((r) => r.id === 'create.lost_answer');
    // As src/report/count-creates.ts feeds it: the details only when the counter asks.
    const feed = (counter: MistakeCounter, trade: ReturnType<typeof created>) => {
      if (counter.created(M, trade.order, trade.scenario)) counter.createdDetails(M, trade);
    };
    function created(order: string, at: number, scenario?: string, extra: Record<string, unknown> = {}) {
      return { order, amount: 31250 as unknown, customer: 'c-1' as unknown, scenario, at, trade: `t-${order}`, ...extra };
    }

    const seen = new MistakeCounter();
    feed(seen, created('order-9', 0, 'lost-answer')); // by scenario name, whatever the order
    expect(status(seen)).toMatchObject({ status: 'seen', trade: 't-order-9' });

    const again = new MistakeCounter();
    feed(again, created('sbx-late-1', 0, 'late-answer'));
    feed(again, created('sbx-late-1', 1_000, 'late-answer')); // the retry answered with the trade
    expect(status(again)).toMatchObject({ status: 'handled' });

    const refused = new MistakeCounter();
    feed(refused, created('sbx-lost-1', 0));
    refused.refused(M, { status: 422, code: 'duplicate_order', fields: ['order'], order: 'sbx-lost-1', create: true, forced: false });
    expect(status(refused)).toMatchObject({ status: 'handled', trade: 't-sbx-lost-1' });
    expect(refused.report(() => 'Demo Shop').total).toBe(0);

    const wrong = new MistakeCounter();
    feed(wrong, created('sbx-lost-2', 0));
    feed(wrong, created('order-other-amount', 1_000, undefined, { amount: 100 })); // not the same payment
    feed(wrong, created('order-late', 6 * 60_000)); // more than 5 minutes later
    expect(status(wrong)).toMatchObject({ status: 'seen' });
    feed(wrong, created('sbx-lost-3', 10 * 60_000));
    feed(wrong, created('order-new', 10 * 60_000 + 30_000)); // same amount and customer, 30 s later
    expect(status(wrong)).toMatchObject({ status: 'wrong', trade: 't-sbx-lost-3', detail: expect.stringContaining('a new order order-new with the same amount and customer') });
  });
});

describe('coverage rows of callbacks', () => {
  for (const state of ['confirmed', 'canceled', 'expired'] as const) {
    it(`callback.${state}: seen when sent, handled when acknowledged 2xx, wrong when it finally failed`, async () => {
      const t = await sandbox();
      const good = await receiver(verifying);
      const down = await receiver((_q, res) => void res.writeHead(503).end());
      const id = await createWith(t, { callback_url: `${good.url}/cb` });
      const delivered = next(t, 'delivered', id);
      t.sandbox.lifecycle.transition(id, state, 'admin');
      expect(await row(t, `callback.${state}`)).toMatchObject({ status: 'seen', trade: id });
      await t.sandbox.scheduler.advance(0);
      await delivered; // advance() waits at most 1 s (wall clock) for an answer: on a busy machine it may come later
      expect(await row(t, `callback.${state}`)).toMatchObject({ status: 'handled', trade: id });
      const failing = await createWith(t, { callback_url: `${down.url}/cb` });
      const attempted = next(t, 'attempt', failing);
      t.sandbox.lifecycle.transition(failing, state, 'admin');
      await t.sandbox.scheduler.advance(0);
      await attempted; // the retry is scheduled once the first attempt is answered,
      await t.sandbox.callbacks.idle(); // and runs only once that attempt is saved
      const failed = next(t, 'failed', failing);
      await t.sandbox.scheduler.advance(1_000);
      await failed;
      expect(await row(t, `callback.${state}`)).toMatchObject({ status: 'wrong', trade: failing, detail: 'never acknowledged: 2 attempts failed, the last with HTTP 503' });
    });
  }

  it('callback.retry_after_failure: seen after a failed attempt, handled when a retry is acknowledged, wrong when every retry failed', async () => {
    const t = await sandbox();
    let answers = 0;
    const flaky = await receiver((_q, res) => void res.writeHead(++answers === 1 ? 500 : 200).end());
    const id = await createWith(t, { callback_url: `${flaky.url}/cb` });
    t.sandbox.lifecycle.transition(id, 'confirmed', 'admin');
    await t.sandbox.scheduler.advance(0);
    expect(await row(t, 'callback.retry_after_failure')).toMatchObject({ status: 'seen', trade: id });
    await t.sandbox.scheduler.advance(1_000);
    expect(await row(t, 'callback.retry_after_failure')).toMatchObject({ status: 'handled', trade: id });

    const other = await sandbox();
    const down = await receiver((_q, res) => void res.writeHead(500).end());
    const failing = await createWith(other, { callback_url: `${down.url}/cb` });
    other.sandbox.lifecycle.transition(failing, 'confirmed', 'admin');
    await other.sandbox.scheduler.advance(0);
    await other.sandbox.scheduler.advance(1_000);
    expect(await row(other, 'callback.retry_after_failure')).toMatchObject({ status: 'wrong', trade: failing });
  });

  it('callback.retry_after_failure: the sandbox failing attempts on purpose (sbx-flaky-) and the retry acknowledged is handled', async () => {
    const t = await sandbox({ callbackRetries: '1s,1s,1s' });
    const good = await receiver(verifying);
    const id = await createWith(t, { order: 'sbx-flaky-cov', callback_url: `${good.url}/cb` });
    await t.sandbox.scheduler.advance(5_000);
    await t.sandbox.scheduler.advance(1_000);
    await t.sandbox.scheduler.advance(1_000);
    expect(good.received).toHaveLength(1);
    expect(await row(t, 'callback.retry_after_failure')).toMatchObject({ status: 'handled', trade: id });
    expect((await report(t)).total).toBe(0);
  });

  it('callback.duplicate (sbx-dup-): seen when sent, handled when both deliveries got 2xx, wrong when the repeat was refused', async () => {
    const t = await sandbox();
    const good = await receiver(verifying);
    const id = await createWith(t, { order: 'sbx-dup-cov-1', callback_url: `${good.url}/cb` });
    await t.sandbox.scheduler.advance(4_999);
    expect((await row(t, 'callback.duplicate')).status).toBe('not_seen');
    await t.sandbox.lifecycle.transition(id, 'confirmed', 'admin');
    expect(await row(t, 'callback.duplicate')).toMatchObject({ status: 'seen', trade: id });
    await t.sandbox.scheduler.advance(0);
    await good.waitFor(2);
    expect(await row(t, 'callback.duplicate')).toMatchObject({ status: 'handled', trade: id });

    let seen = 0;
    const once = await receiver((_q, res) => void res.writeHead(++seen === 1 ? 200 : 409).end());
    const twice = await createWith(t, { order: 'sbx-dup-cov-2', callback_url: `${once.url}/cb` });
    await t.sandbox.scheduler.advance(5_000);
    await once.waitFor(2);
    expect(await row(t, 'callback.duplicate')).toMatchObject({ status: 'wrong', trade: twice, detail: expect.stringContaining('answered HTTP 409') });
  });

  it('callback.overlapping (sbx-race-, fed by the trade order until the overlapping-callbacks scenario arrives): seen, handled when every delivery got 2xx, wrong otherwise', async () => {
    const t = await sandbox();
    const good = await receiver(verifying);
    const id = await createWith(t, { order: 'sbx-race-cov-1', callback_url: `${good.url}/cb` });
    t.sandbox.lifecycle.transition(id, 'confirmed', 'admin');
    expect(await row(t, 'callback.overlapping')).toMatchObject({ status: 'seen', trade: id });
    await t.sandbox.scheduler.advance(0);
    expect(await row(t, 'callback.overlapping')).toMatchObject({ status: 'handled', trade: id });
    const down = await receiver((_q, res) => void res.writeHead(500).end());
    const failing = await createWith(t, { order: 'sbx-race-cov-2', callback_url: `${down.url}/cb` });
    t.sandbox.lifecycle.transition(failing, 'confirmed', 'admin');
    await t.sandbox.scheduler.advance(0);
    expect(await row(t, 'callback.overlapping')).toMatchObject({ status: 'wrong', trade: failing });
  });

  it("callback.overlapping: the second of two overlapping copies is that row's, never callback.duplicate's; a refused copy makes overlapping wrong", async () => {
    const t = await sandbox();
    const good = await receiver(verifying);
    const id = await createWith(t, { order: 'sbx-race-twin-1', callback_url: `${good.url}/cb` });
    const delivered = new Promise<void>((resolve) => t.sandbox.callbacks.once('delivered', () => resolve()));
    t.sandbox.lifecycle.transition(id, 'confirmed', 'admin');
    await t.sandbox.scheduler.advance(0);
    await delivered;
    expect(await row(t, 'callback.overlapping')).toMatchObject({ status: 'handled', trade: id });
    expect((await row(t, 'callback.duplicate')).status).toBe('not_seen');

    let answers = 0;
    const once = await receiver((_q, res) => void res.writeHead(++answers === 1 ? 200 : 409).end());
    const other = await sandbox();
    const twin = await createWith(other, { order: 'sbx-race-twin-2', callback_url: `${once.url}/cb` });
    const attempted = new Promise<void>((resolve) => other.sandbox.callbacks.on('attempt', (_e, a) => a.kind === 'duplicate' && resolve()));
    other.sandbox.lifecycle.transition(twin, 'confirmed', 'admin');
    await other.sandbox.scheduler.advance(0);
    await attempted;
    expect(await row(other, 'callback.overlapping')).toMatchObject({ status: 'wrong', trade: twin, detail: 'an overlapping callback was answered HTTP 409' });
    expect((await row(other, 'callback.duplicate')).status).toBe('not_seen');
  });

  it('callback.bad_signature (sbx-badsig-): seen when sent, handled when the forged copy got a 4xx, wrong when it got a 2xx', async () => {
    const t = await sandbox();
    const good = await receiver(verifying);
    const id = await createWith(t, { order: 'sbx-badsig-cov-1', callback_url: `${good.url}/cb` });
    t.sandbox.lifecycle.transition(id, 'confirmed', 'admin');
    expect(await row(t, 'callback.bad_signature')).toMatchObject({ status: 'seen', trade: id });
    await t.sandbox.scheduler.advance(0);
    expect(await row(t, 'callback.bad_signature')).toMatchObject({ status: 'handled', trade: id });
    const naive = await receiver((_q, res) => void res.writeHead(200).end());
    const accepted = await createWith(t, { order: 'sbx-badsig-cov-2', callback_url: `${naive.url}/cb` });
    t.sandbox.lifecycle.transition(accepted, 'confirmed', 'admin');
    await t.sandbox.scheduler.advance(0);
    expect(await row(t, 'callback.bad_signature')).toMatchObject({ status: 'wrong', trade: accepted, detail: expect.stringContaining('wrong X-Signature was accepted (HTTP 200)') });
  });
});

describe('coverage row of the payment page', () => {
  it('payment.3ds_declined: seen when a payer failed the 3-D Secure step (wrong code)', async () => {
    const t = await sandbox();
    const built = await t.post('/api/v1/trades/deposit/build', ecomBody());
    expect(built.status).toBe(201);
    const { id } = (await built.json()) as { id: string };
    expect((await row(t, 'payment.3ds_declined')).status).toBe('not_seen');
    const form = (path: string, fields: Record<string, string>) =>
      t.app.request(path, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
    expect((await form(`/pay/${id}/pay`, { number: '4000 0000 0000 3220', expiry: '12/40', cvc: '123' })).status).toBe(200);
    expect((await form(`/pay/${id}/3ds`, { card: '4000000000003220', code: '0000' })).status).toBe(303);
    expect(await row(t, 'payment.3ds_declined')).toMatchObject({ status: 'seen', trade: id });
  });
});

describe("QA's own clicks are not the merchant's", () => {
  const QA = { 'X-Sandbox-Client': 'dashboard' };

  it('creates and refusals marked X-Sandbox-Client: dashboard, and the callbacks and payments of those trades, count for nothing', async () => {
    const t = await sandbox();
    const down = await receiver((_q, res) => void res.writeHead(500).end());
    const created = await t.post('/api/v1/trades/deposit/create', p2pBody({ order: 'qa-1', callback_url: `${down.url}/cb` }), QA);
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await t.post('/api/v1/trades/deposit/create', p2pBody({ order: 'qa-1' }), QA)).status).toBe(422);
    expect((await t.post('/api/v1/trades/deposit/create', p2pBody(), { ...QA, 'X-Auth': 'wrong' })).status).toBe(401);
    t.sandbox.lifecycle.transition(id, 'confirmed', 'admin');
    await t.sandbox.scheduler.advance(0);
    await t.sandbox.scheduler.advance(1_000);
    expect(down.received).toHaveLength(2);
    const built = await t.post('/api/v1/trades/deposit/build', ecomBody(), QA);
    const ecom = ((await built.json()) as { id: string }).id;
    const form = (path: string, fields: Record<string, string>) =>
      t.app.request(path, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
    await form(`/pay/${ecom}/pay`, { number: '4000 0000 0000 3220', expiry: '12/40', cvc: '123' });
    expect((await form(`/pay/${ecom}/3ds`, { card: '4000000000003220', code: '0000' })).status).toBe(303);
    expect(await report(t)).toEqual({ total: 0, merchants: [], notes: [], coverage: [] });
    // The same, sent by the merchant's own client, is counted.
    expect((await t.post('/api/v1/trades/deposit/create', p2pBody({ order: 'qa-1' }))).status).toBe(422);
    expect((await report(t)).total).toBe(1);
  });
});

describe('coverage in the formats', () => {
  const REPORT: IntegrationReport = {
    total: 0,
    merchants: [],
    notes: [],
    coverage: [
      {
        merchant: DEMO.id,
        name: 'Demo Shop',
        rows: [
          { id: 'create.accepted', status: 'seen' },
          { id: 'callback.confirmed', status: 'handled', trade: 't-1', detail: 'acknowledged with 2xx' },
          { id: 'callback.bad_signature', status: 'wrong', trade: 't-2', detail: 'the copy with a wrong X-Signature was accepted (HTTP 200)' },
          { id: 'callback.duplicate', status: 'seen', trade: 't-3' },
          { id: 'payment.3ds_declined', status: 'not_seen' },
        ],
      },
    ],
  };

  it('JUnit: a case per row; handled passes, wrong fails with trade and cause, not_seen and seen are skipped with a message; valid against test/junit.xsd', async () => {
    const xml = reportJunit(REPORT);
    expect(await junitErrors(xml)).toEqual([]);
    expect(xml).toContain(`<testsuite name="deposit-sandbox coverage: Demo Shop (${DEMO.id})" tests="5" failures="1" errors="0" skipped="3">`);
    expect(xml).toContain(`<testcase classname="deposit-sandbox.coverage.${DEMO.id}" name="callback.confirmed: a confirmed callback acknowledged"/>`);
    expect(xml).toContain('<failure message="wrong: trade t-2: the copy with a wrong X-Signature was accepted (HTTP 200)" type="coverage_wrong">');
    expect(xml).toContain('<skipped>not seen: to exercise it, pay an ecom trade with the 3-D Secure test card and a wrong code, or cancel the check</skipped>');
    expect(xml).toContain('<skipped>seen, not handled: trade t-3</skipped>');
  });

  it('--fail-on wrong fails on the wrong row only; --fail-on not-handled also on rows not handled (a seen-only row is done when seen)', async () => {
    expect(failingRows(REPORT, 'wrong')).toEqual([`Demo Shop (${DEMO.id}): callback.bad_signature wrong: the copy with a wrong X-Signature was accepted (HTTP 200)`]);
    expect(failingRows(REPORT, 'not-handled').map((line) => line.split(': ')[1])).toEqual(['callback.bad_signature wrong', 'callback.duplicate seen', 'payment.3ds_declined not_seen']);
    const strict = reportJunit(REPORT, 'not-handled');
    expect(await junitErrors(strict)).toEqual([]);
    expect(coverageSuites(REPORT, 'not-handled')[0]!.cases.filter((c) => c.failure).length).toBe(3);
  });

  it('Markdown: the same table', () => {
    const md = reportMarkdown(REPORT);
    expect(md).toContain(`## Coverage: Demo Shop (${DEMO.id})\n\n| row | status | trade | detail |\n|---|---|---|---|\n| create.accepted | seen |  |  |\n`);
    expect(md).toContain('| callback.bad_signature | wrong | t-2 | the copy with a wrong X-Signature was accepted (HTTP 200) |\n');
    expect(md).toContain('| payment.3ds_declined | not_seen |  | to exercise it, pay an ecom trade');
  });
});
