/**
 * POST /_sandbox/check-callback through app.request(), against real receivers on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyCallbackSignature } from '../../src/auth/signature.js';
import type { CheckReport } from '../../src/check-callback/check-report.js';
import { startReceiver, type Receiver } from '../callbacks-receiver.js';
import { DEMO, errorOf, makeSandbox, SECOND, type TestSandbox } from '../support.js';

let t: TestSandbox;
let strict: Receiver;
let naive: Receiver;

beforeAll(async () => {
  t = await makeSandbox({ publicUrl: 'http://sandbox.test:4242' });
  // Accepts only callbacks signed with the second merchant's secret.
  strict = await startReceiver((request, res) => {
    const ok = verifyCallbackSignature(SECOND.secret, request.body, request.headers['x-signature'] as string | undefined);
    res.writeHead(ok ? 200 : 401).end(ok ? 'ok' : 'bad signature');
  });
  naive = await startReceiver();
});

afterAll(async () => {
  await Promise.all([t.close(), strict.close(), naive.close()]);
});

const post = (body: unknown, headers: Record<string, string> = {}) => t.post('/_sandbox/check-callback', body, headers);

describe('POST /_sandbox/check-callback', () => {
  it("signs with the named merchant's fixtures secret and answers the report", async () => {
    const res = await post({ url: `${strict.url}/cb`, merchant: SECOND.id, order: 'order-77' });
    expect(res.status).toBe(200);
    const report = (await res.json()) as CheckReport;
    expect(report).toMatchObject({ url: `${strict.url}/cb`, merchant: SECOND.id, passed: true, flagged: 0, warnings: 0 });
    expect(report.cases.map((c) => [c.case, c.status, c.verdict])).toEqual([
      ['valid', 200, 'ok'],
      ['duplicate', 200, 'ok'],
      ['older_state', 200, 'ok'],
      ['bad_signature', 401, 'ok'],
      ['no_signature', 401, 'ok'],
    ]);
    const first = JSON.parse(strict.received[0]!.body) as { order: string; merchant: string; rate: number; payment_data: { url: string } };
    expect(first).toMatchObject({ order: 'order-77', merchant: SECOND.id, rate: SECOND.rate });
    expect(first.payment_data.url).toMatch(/^http:\/\/sandbox\.test:4242\/pay\//);
  });

  it('uses the first fixtures merchant when none is named, and flags what the receiver gets wrong', async () => {
    const res = await post({ url: naive.url });
    const report = (await res.json()) as CheckReport;
    expect(report).toMatchObject({ merchant: DEMO.id, passed: false, flagged: 2 });
    expect(report.cases.filter((c) => c.verdict === 'flagged').map((c) => c.case)).toEqual(['bad_signature', 'no_signature']);
  });

  it('stores nothing: no trade, no callback event', async () => {
    await post({ url: naive.url });
    expect(t.sandbox.store.trades.size).toBe(0);
    expect(t.sandbox.store.callbacks.size).toBe(0);
  });

  it('refuses a merchant that is not in the fixtures, naming the ones that are', async () => {
    const res = await post({ url: naive.url, merchant: '2c9d7e41-5b6a-4f38-9e0d-7a1b3c5d7e9f' });
    expect(res.status).toBe(422);
    const error = await errorOf(res);
    expect(error.message).toBe(`Merchant "2c9d7e41-5b6a-4f38-9e0d-7a1b3c5d7e9f" is not in this sandbox's fixtures (it has ${DEMO.id}, ${SECOND.id}).`);
    expect(error.details).toEqual([{ field: 'merchant', message: `must be a merchant id from the fixtures: ${DEMO.id}, ${SECOND.id}` }]);
  });

  it.each([
    [{}, 'url', 'url is required'],
    [{ url: 'file:///etc/passwd' }, 'url', 'url must be an absolute http:// or https:// URL'],
    [{ url: 'javascript:alert(1)' }, 'url', 'url must be an absolute http:// or https:// URL'],
    [{ url: 'http://127.0.0.1:1/cb', merchant: 42 }, 'merchant', 'merchant must be a merchant id from the fixtures'],
    [{ url: 'http://127.0.0.1:1/cb', order: '' }, 'order', 'order must not be empty'],
  ])('refuses %j with 422 naming the field', async (body, field, message) => {
    const res = await post(body);
    expect(res.status).toBe(422);
    const error = await errorOf(res);
    expect(error.details[0]).toMatchObject({ field });
    expect(error.details[0]!.message).toContain(message);
  });

  it('requires the admin token when the sandbox has one', async () => {
    const guarded = await makeSandbox({ adminToken: 'check-token' });
    try {
      const before = naive.received.length;
      const refused = await guarded.post('/_sandbox/check-callback', { url: naive.url });
      expect(refused.status).toBe(401);
      expect((await errorOf(refused)).code).toBe('admin_token_required');
      expect(naive.received.length).toBe(before); // nothing was sent
      const ok = await guarded.post('/_sandbox/check-callback', { url: naive.url }, { Authorization: 'Bearer check-token' });
      expect(ok.status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});
