/**
 * The callback-receiver check against real receivers on 127.0.0.1 (port 0): a correct one,
 * and one broken in each way the check must name.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyCallbackSignature } from '../../src/auth/signature.js';
import { checkCallbackReceiver } from '../../src/check-callback/check-callback-receiver.js';
import { formatCheckReport } from '../../src/check-callback/format-check.js';
import type { CheckReport } from '../../src/check-callback/check-report.js';
import { tradeSchema } from '../../src/trades/trade.js';
import { CLOSED_PORT, startReceiver, type Receiver, type Received } from '../callbacks-receiver.js';
import { DEMO } from '../support.js';

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

type Handler = (request: Received, state: { seen: Set<string>; states: Map<string, string> }) => number;

/** A receiver whose status for each request comes from `handler` (it sees what was handled before). */
async function receiver(handler: Handler): Promise<Receiver> {
  const state = { seen: new Set<string>(), states: new Map<string, string>() };
  const r = await startReceiver((request, res: ServerResponse) => {
    const status = handler(request, state);
    res.writeHead(status, { 'Content-Type': 'text/plain' }).end(status < 300 ? 'ok' : `refused ${status}`);
  });
  receivers.push(r);
  return r;
}

const signed = (request: Received, secret: string = DEMO.secret) => verifyCallbackSignature(secret, request.body, request.headers['x-signature'] as string | undefined);
const eventId = (request: Received) => String(request.headers['x-sandbox-event-id']);
const RANK: Record<string, number> = { created: 0, ecom: 0, confirmed: 1, canceled: 1, expired: 1 };

/** What a receiver should do: verify, then ignore repeats and older states, answering 200. */
const correct: Handler = (request, { seen, states }) => {
  if (!signed(request)) return 401;
  if (seen.has(eventId(request))) return 200;
  seen.add(eventId(request));
  const trade = JSON.parse(request.body) as { id: string; state: string };
  const current = states.get(trade.id);
  if (current === undefined || RANK[trade.state]! >= RANK[current]!) states.set(trade.id, trade.state);
  return 200;
};

const check = (url: string, extra: Partial<Parameters<typeof checkCallbackReceiver>[0]> = {}) =>
  checkCallbackReceiver({ url, merchant: { id: DEMO.id, secret: DEMO.secret }, timeoutMs: 5_000, ...extra });

const verdicts = (report: CheckReport) => Object.fromEntries(report.cases.map((c) => [c.case, c.verdict]));

describe('checkCallbackReceiver', () => {
  it('passes a correct receiver: 2xx to the valid, repeated and older callbacks, 401 to the forged ones', async () => {
    const r = await receiver(correct);
    const report = await check(`${r.url}/deposit-callback`);
    expect(verdicts(report)).toEqual({ valid: 'ok', duplicate: 'ok', older_state: 'ok', bad_signature: 'ok', no_signature: 'ok' });
    expect(report).toMatchObject({ url: `${r.url}/deposit-callback`, merchant: DEMO.id, passed: true, flagged: 0, warnings: 0 });
    expect(report.cases.map((c) => c.status)).toEqual([200, 200, 200, 401, 401]);
    // A refused forged callback is the right outcome, so it carries no error.
    expect(report.cases[3]).not.toHaveProperty('error');
    expect(report.cases.find((c) => c.case === 'older_state')?.message).toContain('must not move the order back');
  });

  it('sends what it says: same event twice, then an older state of that trade, then forged ones for other trades', async () => {
    const r = await receiver(correct);
    await check(`${r.url}/cb`, { order: 'order-1001' });
    const got = r.received;
    expect(got.map((q) => q.headers['x-sandbox-check'])).toEqual(['valid', 'duplicate', 'older_state', 'bad_signature', 'no_signature']);
    const [valid, duplicate, older, bad, missing] = got as [Received, Received, Received, Received, Received];
    for (const q of got) {
      expect(q.method).toBe('POST');
      expect(q.path).toBe('/cb');
      expect(q.headers['content-type']).toBe('application/json');
      expect(Object.keys(tradeSchema.parse(JSON.parse(q.body)))).toHaveLength(8);
    }
    expect(duplicate.body).toBe(valid.body);
    expect(duplicate.headers['x-signature']).toBe(valid.headers['x-signature']);
    expect(eventId(duplicate)).toBe(eventId(valid));
    expect(JSON.parse(valid.body)).toMatchObject({ state: 'confirmed', order: 'order-1001', merchant: DEMO.id, amount_currency: 'RUB' });
    expect(JSON.parse(older.body)).toMatchObject({ id: JSON.parse(valid.body).id, state: 'created' });
    expect(eventId(older)).not.toBe(eventId(valid));
    expect([valid, duplicate, older].every((q) => signed(q))).toBe(true);
    expect(signed(bad)).toBe(false);
    expect(bad.headers['x-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(missing.headers['x-signature']).toBeUndefined();
    expect(new Set([JSON.parse(valid.body).id, JSON.parse(bad.body).id, JSON.parse(missing.body).id]).size).toBe(3);
  });

  it('flags a receiver that accepts bad and missing signatures', async () => {
    const r = await receiver(() => 200);
    const report = await check(r.url);
    expect(verdicts(report)).toEqual({ valid: 'ok', duplicate: 'ok', older_state: 'ok', bad_signature: 'flagged', no_signature: 'flagged' });
    expect(report).toMatchObject({ passed: false, flagged: 2 });
    expect(report.cases[3]!.message).toBe(
      "Accepted a callback whose X-Signature is wrong (200): anyone who can reach this URL could mark orders paid. Verify X-Signature before doing anything else: it is the lowercase hex HMAC-SHA256 of the raw body bytes, keyed with the merchant's secret; compare it in constant time and answer 401 when it does not match.",
    );
    expect(report.cases[4]!.message).toMatch(/^Accepted a callback without an X-Signature header \(200\)/);
  });

  it('flags a receiver that refuses a repeated event and an older state', async () => {
    const r = await receiver((request, { seen }) => {
      if (!signed(request)) return 401;
      const trade = JSON.parse(request.body) as { state: string };
      if (seen.has(eventId(request))) return 409;
      seen.add(eventId(request));
      return trade.state === 'created' ? 422 : 200;
    });
    const report = await check(r.url);
    expect(verdicts(report)).toEqual({ valid: 'ok', duplicate: 'flagged', older_state: 'flagged', bad_signature: 'ok', no_signature: 'ok' });
    expect(report.cases[1]!.message).toBe(
      'Did not accept a repeat of the same event (same X-Sandbox-Event-Id, body and signature). It answered 409 ("refused 409"). Callbacks arrive at least once: answer 2xx to a repeat without doing the work twice (remember handled event ids, or make the update idempotent).',
    );
    expect(report.cases[2]!.message).toContain('It answered 422 ("refused 422"). Answer 2xx and ignore it (keep the newer state)');
  });

  it('flags a receiver that refuses correctly signed callbacks (a wrong secret), naming where the secret came from', async () => {
    const r = await receiver((request) => (signed(request, 'some-other-secret') ? 200 : 401));
    const report = await check(r.url, { secretSource: 'the secret given with --secret' });
    expect(verdicts(report)).toEqual({ valid: 'flagged', duplicate: 'flagged', older_state: 'flagged', bad_signature: 'ok', no_signature: 'ok' });
    expect(report.flagged).toBe(3);
    expect(report.cases[0]!.message).toContain('Refused a correctly signed callback. It answered 401 ("refused 401").');
    expect(report.cases[0]!.message).toContain('this check used the secret given with --secret');
    expect(report.cases[1]!.message).toMatch(/^The first copy was not accepted either; fix that first\./);
  });

  it('warns (without flagging) when forged callbacks are refused with a 5xx', async () => {
    const r = await receiver((request) => (signed(request) ? 200 : 500));
    const report = await check(r.url);
    expect(verdicts(report)).toEqual({ valid: 'ok', duplicate: 'ok', older_state: 'ok', bad_signature: 'warning', no_signature: 'warning' });
    expect(report).toMatchObject({ passed: true, flagged: 0, warnings: 2 });
    expect(report.cases[3]!.message).toBe('Refused a callback whose X-Signature is wrong, but with 500. Answer 401 or 403: a 5xx reads as an outage in your logs and monitoring.');
  });

  it('flags a redirect of the valid callback with the redirect explained', async () => {
    const r = await startReceiver((_request, res) => void res.writeHead(302, { Location: 'https://elsewhere.test/cb' }).end());
    receivers.push(r);
    const report = await check(r.url);
    expect(report.cases[0]).toMatchObject({ verdict: 'flagged', status: 302 });
    expect(report.cases[0]!.message).toContain('It answered 302. The callback URL redirected (302) to "https://elsewhere.test/cb". Redirects are not followed');
    expect(report.cases[3]).toMatchObject({ verdict: 'warning', status: 302 });
  });

  it('sends nothing more when nothing answers the first callback, and says why', async () => {
    const port = CLOSED_PORT;
    const report = await check(`http://127.0.0.1:${port}/cb`);
    expect(verdicts(report)).toEqual({ valid: 'flagged', duplicate: 'skipped', older_state: 'skipped', bad_signature: 'skipped', no_signature: 'skipped' });
    expect(report).toMatchObject({ passed: false, flagged: 1, warnings: 0 });
    expect(report.cases[0]).toMatchObject({ status: null, error: `Connection refused by 127.0.0.1:${port}: nothing is listening there. Start the receiver, or fix the port in callback_url.` });
    expect(report.cases[1]!.message).toBe(
      `Not sent: the receiver did not answer the first callback (Connection refused by 127.0.0.1:${port}: nothing is listening there. Start the receiver, or fix the port in callback_url.).`,
    );
  });

  it('flags a receiver that does not answer within the timeout', async () => {
    const r = await startReceiver(() => undefined); // never answers
    receivers.push(r);
    const report = await check(r.url, { timeoutMs: 300 });
    expect(report.cases[0]).toMatchObject({ case: 'valid', verdict: 'flagged', status: null });
    expect(report.cases[0]!.message).toContain('No answer within 300ms (the callback timeout, --callback-timeout)');
    expect(report.cases.slice(1).every((c) => c.verdict === 'skipped')).toBe(true);
  });

  it('formats a report as the CLI prints it', async () => {
    const r = await receiver(() => 200);
    const text = formatCheckReport(await check(r.url), 'Demo Shop');
    expect(text).toMatch(new RegExp(`^Checking the callback receiver ${r.url} as merchant ${DEMO.id} \\(Demo Shop\\)\\n\\n`));
    expect(text).toMatch(/\n {2}ok {7}a valid callback {19}200 in \d+ ms\n/);
    expect(text).toMatch(/\n {2}FLAGGED {2}a wrong signature {18}200 in \d+ ms\n {11}Accepted a callback whose X-Signature is wrong/);
    expect(text.endsWith('\n2 of 5 checks flagged: fix them and run the check again.\n')).toBe(true);
  });
});
