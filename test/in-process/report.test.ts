/**
 * The integration report: the merchant's mistakes counted per merchant through the app
 * (app.request(), no port) and real receivers on 127.0.0.1, then GET /_sandbox/report and its
 * JUnit and Markdown renderings.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sign } from '../../src/auth/signature.js';
import { integrationReportSchema, type IntegrationReport } from '../../src/report/report-schema.js';
import { reportJunit, reportMarkdown } from '../../src/report/report-formats.js';
import { startReceiver, type Receiver } from '../callbacks-receiver.js';
import { junitErrors } from '../junit-schema.js';
import { DEMO, makeSandbox, p2pBody, SECOND, type TestSandbox } from '../support.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandbox(options: Parameters<typeof makeSandbox>[0] = {}): Promise<TestSandbox> {
  const t = await makeSandbox({ clock: 'manual', ...options });
  cleanups.push(() => t.close());
  return t;
}

async function receiver(respond: Receiver['respond']): Promise<Receiver> {
  const r = await startReceiver(respond);
  cleanups.push(() => r.close());
  return r;
}

async function report(t: TestSandbox, headers: Record<string, string> = {}): Promise<IntegrationReport> {
  const res = await t.app.request('/_sandbox/report', { headers });
  expect(res.status).toBe(200);
  return integrationReportSchema.parse(await res.json());
}

const UNKNOWN = '2c9d7e41-5b6a-4f38-9e0d-7a1b3c5d7e9f';
/** Resolves once no callback is pending or under way (a real clock sends on its own). */
async function waitForIdle(t: TestSandbox): Promise<void> {
  for (let i = 0; i < 200 && [...t.sandbox.store.callbacks.values()].some((e) => e.status === 'pending'); i++) {
    await new Promise((resolve) => t.sandbox.callbacks.once('attempt', resolve));
  }
  await t.sandbox.callbacks.idle();
}

const NONE = { answered_non_2xx: 0, timed_out: 0, never_acknowledged: 0, accepted_bad_signature: 0 };

describe('GET /_sandbox/report', () => {
  it('starts empty', async () => {
    const t = await sandbox();
    expect(await report(t)).toMatchObject({ total: 0, merchants: [], notes: [] });
  });

  // A correct client: creates, reads at once, reads several times within a second, reads after
  // the callback; its receiver answers 2xx to signed callbacks and 401 to forged ones; it asks
  // for forced refusals (sbx-reject-, sbx-unauth-) on purpose. No rule may count any of it.
  for (const clock of ['manual', 'real'] as const) {
    it(`a correct client on a ${clock} clock gets total 0 and no note`, async () => {
      const t = await sandbox({ clock });
      const verifying = await receiver((q, res) => void res.writeHead(q.headers['x-signature'] === sign(DEMO.secret, q.body) ? 200 : 401).end());
      const created = await t.post('/api/v1/trades/deposit/create', p2pBody({ callback_url: `${verifying.url}/cb` }));
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      for (let i = 0; i < 5; i++) expect((await t.get(`/api/v1/trades/${DEMO.id}/${id}`)).status).toBe(200);
      t.sandbox.lifecycle.transition(id, 'confirmed', 'admin');
      if (clock === 'manual') await t.sandbox.scheduler.advance(0);
      await verifying.waitFor(1);
      expect((await t.get(`/api/v1/trades/${DEMO.id}/${id}`)).status).toBe(200);
      expect((await t.post('/api/v1/trades/deposit/create', p2pBody({ order: 'sbx-reject-correct' }))).status).toBe(422);
      expect((await t.post('/api/v1/trades/deposit/create', p2pBody({ order: 'sbx-unauth-correct' }))).status).toBe(401);
      if (clock === 'manual') {
        // The callback scenarios confirm after 5 s of the sandbox clock.
        for (const prefix of ['sbx-badsig-', 'sbx-dup-', 'sbx-flaky-']) {
          expect((await t.post('/api/v1/trades/deposit/create', p2pBody({ order: `${prefix}correct`, callback_url: `${verifying.url}/cb` }))).status).toBe(201);
        }
        await t.sandbox.scheduler.advance(5_000);
        await t.sandbox.scheduler.advance(120_000); // the flaky scenario's retries
        await verifying.waitFor(1 + 2 + 2 + 1);
      }
      await waitForIdle(t);
      const seen = await report(t);
      expect(seen).toMatchObject({ total: 0, merchants: [], notes: [] });
      // The same client reaches handled on every callback row it exercised.
      const status = Object.fromEntries(seen.coverage.find((m) => m.merchant === DEMO.id)!.rows.map((row) => [row.id, row.status]));
      expect(status).toMatchObject({ 'create.accepted': 'seen', 'create.refused_401': 'seen', 'create.refused_422': 'seen', 'callback.confirmed': 'handled' });
      if (clock === 'manual') expect(status).toMatchObject({ 'callback.bad_signature': 'handled', 'callback.duplicate': 'handled', 'callback.retry_after_failure': 'handled' });
    });
  }

  it('counts 401s by cause and 422s by field and code, per merchant, and duplicate orders apart', async () => {
    const t = await sandbox({ auth: 'either' });
    const body = p2pBody({ order: 'order-r-1' });
    expect((await t.post('/api/v1/trades/deposit/create', body)).status).toBe(201);
    const answers = [
      await t.post('/api/v1/trades/deposit/create', p2pBody(), { 'X-Auth': '' }), // missing header
      await t.app.request('/api/v1/trades/deposit/create', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Token': DEMO.token }, body: JSON.stringify(p2pBody()) }), // wrong header
      await t.post('/api/v1/trades/deposit/create', p2pBody(), { 'X-Auth': 'a'.repeat(64) }), // bad signature
      await t.post('/api/v1/trades/deposit/create', p2pBody(), { 'X-Auth': 'a'.repeat(64) }),
      await t.post('/api/v1/trades/deposit/create', p2pBody({ merchant: UNKNOWN })), // unknown merchant
      await t.get(`/api/v1/trades/${SECOND.id}/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, { 'X-Token': DEMO.token }), // another merchant's token
      await t.post('/api/v1/trades/deposit/create', p2pBody({ amount_cents: 'ten' })),
      await t.post('/api/v1/trades/deposit/create', p2pBody({ amount_cents: -1, amount_currency: 'USD' })),
      await t.post('/api/v1/trades/deposit/create', body), // duplicate order
      await t.post('/api/v1/trades/deposit/create', '{"merchant":'), // not JSON
    ];
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 401, 422, 422, 422, 422]);
    const seen = await report(t);
    expect(seen.merchants.map((m) => m.merchant)).toEqual([SECOND.id, UNKNOWN, DEMO.id, '(no merchant id)'].sort());
    const demo = seen.merchants.find((m) => m.merchant === DEMO.id)!;
    expect(demo).toMatchObject({
      name: 'Demo Shop',
      unauthorized: [
        { cause: 'missing_auth_header', count: 1 },
        { cause: 'signature_mismatch', count: 2 },
        { cause: 'wrong_auth_header', count: 1 },
      ],
      invalid: [
        { field: 'amount_cents', code: 'validation_failed', count: 2 },
        { field: 'amount_currency', code: 'validation_failed', count: 1 },
      ],
      duplicate_orders: 1,
      callbacks: NONE,
      total: 8,
    });
    expect(seen.merchants.find((m) => m.merchant === UNKNOWN)).toMatchObject({ unauthorized: [{ cause: 'unknown_merchant', count: 1 }], total: 1 });
    expect(seen.merchants.find((m) => m.merchant === SECOND.id)).toMatchObject({ name: 'Second Shop', unauthorized: [{ cause: 'invalid_token', count: 1 }] });
    expect(seen.merchants.find((m) => m.merchant === '(no merchant id)')).toMatchObject({ invalid: [{ field: 'body', code: 'invalid_json', count: 1 }] });
    expect(seen.total).toBe(11);
  });

  it('notes more than 60 reads of one trade within a minute as advice: not in total, not a mistake', async () => {
    const t = await sandbox();
    const { id } = (await (await t.post('/api/v1/trades/deposit/create', p2pBody())).json()) as { id: string };
    for (let i = 0; i < 61; i++) expect((await t.get(`/api/v1/trades/${DEMO.id}/${id}`)).status).toBe(200);
    expect((await t.get(`/api/v1/trades/${DEMO.id}/${id}`, { 'X-Token': 'wrong' })).status).toBe(401); // a refused read is a 401, not a read
    const seen = await report(t);
    expect(seen.total).toBe(1);
    expect(seen.merchants[0]).toMatchObject({ merchant: DEMO.id, total: 1, unauthorized: [{ cause: 'signature_mismatch', count: 1 }] });
    expect(seen.notes).toEqual([
      {
        merchant: DEMO.id,
        name: 'Demo Shop',
        id: 'sustained_polling',
        trade: id,
        count: 1,
        detail: expect.stringContaining(`more than 60 reads of trade ${id} within a minute`),
        detail_code: 'note.sustained_polling',
        detail_params: { reads: 60, trade: id },
      },
    ]);
    expect(reportMarkdown(seen)).toContain('## Notes (advice, not mistakes)\n\n- Demo Shop');
    const xml = reportJunit(seen);
    expect(await junitErrors(xml)).toEqual([]);
    expect(xml).toContain('failures="1"'); // the 401 only
  });

  it('counts callbacks answered non-2xx, timed out, never acknowledged, and forged copies accepted', async () => {
    // A timeout long enough for the 500 to arrive on a busy machine; the hanging receiver reaches it.
    const t = await sandbox({ callbackTimeout: '2s', callbackRetries: '1s' });
    const refusing = await receiver((_q, res) => void res.writeHead(500).end('down'));
    const hanging = await receiver(() => undefined);
    const accepting = await receiver((_q, res) => void res.writeHead(200).end('ok'));
    /** Resolves after `count` events `name` of the callbacks of `trades` (listening from now on). */
    const events = (name: 'attempt' | 'failed', trades: string[]) =>
      new Promise<void>((resolve) => {
        let left = trades.length;
        const listener = (event: { trade: string }) => {
          if (!trades.includes(event.trade) || --left > 0) return;
          t.sandbox.callbacks.off(name, listener);
          resolve();
        };
        t.sandbox.callbacks.on(name, listener);
      });
    const create = async (callbackUrl: string) => {
      const created = await t.post('/api/v1/trades/deposit/create', p2pBody({ callback_url: callbackUrl }));
      expect(created.status).toBe(201);
      return ((await created.json()) as { id: string }).id;
    };
    const trades = [await create(`${refusing.url}/cb`), await create(`${hanging.url}/cb`)];
    const attempted = events('attempt', trades);
    for (const id of trades) t.sandbox.lifecycle.transition(id, 'confirmed', 'admin');
    await t.sandbox.scheduler.advance(0);
    await attempted; // advance() waits at most 1 s for an answer; the retries are scheduled once both attempts ended
    await t.sandbox.callbacks.idle();
    const failed = events('failed', trades);
    await t.sandbox.scheduler.advance(1000); // the one retry, then failed
    await failed;
    const seen = (await report(t)).merchants[0]!;
    expect(seen.callbacks).toEqual({ answered_non_2xx: 2, timed_out: 2, never_acknowledged: 2, accepted_bad_signature: 0 });
    expect(seen.total).toBe(6);
    // Scenario bad-signature-callback sends a copy with a wrong X-Signature first: accepting it is a mistake.
    expect((await t.post('/api/v1/trades/deposit/create', p2pBody({ order: 'sbx-badsig-report-1', callback_url: `${accepting.url}/cb` }))).status).toBe(201);
    await t.sandbox.scheduler.advance(5000);
    expect(accepting.received).toHaveLength(2);
    expect((await report(t)).merchants[0]!.callbacks).toEqual({ answered_non_2xx: 2, timed_out: 2, never_acknowledged: 2, accepted_bad_signature: 1 });
  });

  it('needs the admin token when the sandbox has one', async () => {
    const t = await sandbox({ adminToken: 'report-token' });
    expect((await t.app.request('/_sandbox/report')).status).toBe(401);
    expect((await report(t, { Authorization: 'Bearer report-token' })).total).toBe(0);
  });
});

describe('report formats', () => {
  const REPORT: IntegrationReport = {
    total: 6,
    merchants: [
      {
        merchant: DEMO.id,
        name: 'Demo Shop',
        total: 6,
        unauthorized: [{ cause: 'signature_mismatch', count: 2 }],
        invalid: [{ field: 'amount|cents', code: 'validation_failed', count: 1 }],
        duplicate_orders: 1,
        callbacks: { answered_non_2xx: 1, timed_out: 0, never_acknowledged: 1, accepted_bad_signature: 0 },
      },
    ],
    notes: [],
    coverage: [],
  };

  it('JUnit: a suite per merchant, a failed case per kind of mistake, valid against test/junit.xsd', async () => {
    const xml = reportJunit(REPORT);
    expect(await junitErrors(xml)).toEqual([]);
    expect(xml).toContain(`<testsuite name="deposit-sandbox integration: Demo Shop (${DEMO.id})" tests="7" failures="5" errors="0" skipped="0">`);
    expect(xml).toContain('<failure message="2 mistakes: 401 signature_mismatch: 2" type="integration_mistake">');
    expect(xml).toContain(`<testcase classname="deposit-sandbox.integration.${DEMO.id}" name="answers callbacks within the timeout"/>`);
    const empty = reportJunit({ total: 0, merchants: [], notes: [], coverage: [] });
    expect(await junitErrors(empty)).toEqual([]);
    expect(empty).toContain('<testcase classname="deposit-sandbox.integration" name="no mistake seen"/>');
  });

  it('Markdown: a table per merchant, pipes in field names escaped', () => {
    const md = reportMarkdown(REPORT);
    expect(md).toContain(`## Demo Shop (${DEMO.id}): 6 mistakes\n\n| check | mistakes | details | what to do |\n|---|---:|---|---|\n`);
    expect(md).toContain('| authenticates every request (no 401) | 2 | 401 signature_mismatch: 2 | Send X-Auth');
    expect(md).toContain('| sends valid requests (no 422) | 1 | 422 validation_failed on amount\\|cents: 1 |');
    expect(md).toContain('| answers callbacks within the timeout | 0 |  |  |\n');
    expect(reportMarkdown({ total: 0, merchants: [], notes: [], coverage: [] })).toBe('# deposit-sandbox integration report\n\nNo mistake seen.\n');
  });
});
