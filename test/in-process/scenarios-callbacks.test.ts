/**
 * The three bundled callback scenarios (scenarios/30-callbacks.yaml) end to end, as a merchant
 * meets them: a create with the magic order prefix and a callback_url pointing at a real
 * receiver on 127.0.0.1, the sandbox clock moved with POST /_sandbox/clock/advance (manual
 * clock), then what the receiver got and what the admin API logged.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { verifyCallbackSignature } from '../../src/auth/signature.js';
import type { CallbackEvent } from '../../src/store/callback-records.js';
import { startReceiver, type Received, type Receiver } from '../callbacks-receiver.js';
import { DEMO, makeSandbox, nextOrder, p2pBody, SECOND, TRADE_KEYS, type TestSandbox } from '../support.js';

const CREATE = '/api/v1/trades/deposit/create';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Setup {
  t: TestSandbox;
  r: Receiver;
}

/** A manual-clock sandbox with the bundled scenarios only, and a receiver answering with `respond`. */
async function setup(respond?: Receiver['respond']): Promise<Setup> {
  const r = await startReceiver(respond);
  cleanups.push(() => r.close());
  const t = await makeSandbox({ clock: 'manual' });
  cleanups.push(() => t.close());
  return { t, r };
}

interface AdminTradeDetail {
  trade: { id: string; state: string; scenario: string | null; callback_url: string | null };
  history: Array<{ from: string | null; to: string; at: string; cause: string; note?: string }>;
  callbacks: CallbackEvent[];
  pending: Array<{ kind: string; due: number; data: Record<string, unknown> }>;
}

/** Creates a P2P trade with the magic order `prefix…` and a callback_url on the receiver; expects 201 and the scenario. */
async function createMagic({ t, r }: Setup, prefix: string, scenario: string): Promise<{ id: string; createdAt: number }> {
  const createdAt = Date.parse(await clockNow(t));
  const res = await t.post(CREATE, p2pBody({ order: nextOrder(`${prefix}order`), callback_url: `${r.url}/deposit-callback` }));
  expect(res.status, await res.clone().text()).toBe(201);
  expect(res.headers.get('X-Sandbox-Scenario')).toBe(scenario);
  const trade = (await res.json()) as Record<string, unknown>;
  expect(Object.keys(trade)).toEqual([...TRADE_KEYS]);
  expect(trade['state']).toBe('created');
  return { id: trade['id'] as string, createdAt };
}

async function clockNow(t: TestSandbox): Promise<string> {
  const res = await t.app.request('/_sandbox/clock');
  expect(res.status).toBe(200);
  const clock = (await res.json()) as { mode: string; now: string };
  expect(clock.mode).toBe('manual');
  return clock.now;
}

/** POST /_sandbox/clock/advance {"by": by}, as a CI test would. */
async function advance(t: TestSandbox, by: string): Promise<{ now: string; ran: number }> {
  const res = await t.app.request('/_sandbox/clock/advance', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ by }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { now: string; ran: number };
}

/** GET /_sandbox/trades/:id */
async function detail(t: TestSandbox, id: string): Promise<AdminTradeDetail> {
  const res = await t.app.request(`/_sandbox/trades/${id}`);
  expect(res.status).toBe(200);
  return (await res.json()) as AdminTradeDetail;
}

/** GET /_sandbox/callbacks?trade=:id */
async function callbacksOf(t: TestSandbox, id: string): Promise<CallbackEvent[]> {
  const res = await t.app.request(`/_sandbox/callbacks?trade=${id}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { callbacks: CallbackEvent[] }).callbacks;
}

/** The trade as the merchant's get returns it (the callback body must be exactly this). */
async function getBody(t: TestSandbox, id: string): Promise<string> {
  const res = await t.get(`/api/v1/trades/${DEMO.id}/${id}`);
  expect(res.status).toBe(200);
  return res.text();
}

const header = (request: Received, name: string) => request.headers[name] as string | undefined;
const verifies = (request: Received) => verifyCallbackSignature(DEMO.secret, request.body, header(request, 'x-signature'));
const iso = (ms: number) => new Date(ms).toISOString();

/** Answers 401 to a callback whose X-Signature does not verify with the demo secret, 200 "ok" otherwise. */
const verifyingReceiver: Receiver['respond'] = (request, res) => {
  if (verifies(request)) {
    res.statusCode = 200;
    res.end('ok');
  } else {
    res.statusCode = 401;
    res.end('bad signature');
  }
};

describe('bundled callback scenarios, end to end (manual clock, real receiver)', () => {
  it('flaky-callbacks (order sbx-flaky-…): confirmed after 5s, the first 2 attempts fail, attempt 3 is delivered on the retry schedule', async () => {
    const s = await setup();
    const { t, r } = s;
    const { id, createdAt } = await createMagic(s, 'sbx-flaky-', 'flaky-callbacks');
    const confirmedAt = createdAt + 5_000;

    // Nothing before the timeline step: no state change, no callback.
    await advance(t, '4999ms');
    expect((await detail(t, id)).trade.state).toBe('created');
    expect(await callbacksOf(t, id)).toEqual([]);

    // The step confirms the trade; attempt 1 is due at once and fails without sending anything.
    await advance(t, '1ms');
    let d = await detail(t, id);
    expect(d.trade).toMatchObject({ state: 'confirmed', scenario: 'flaky-callbacks' });
    expect(d.history.at(-1)).toMatchObject({ from: 'created', to: 'confirmed', cause: 'scenario', at: iso(confirmedAt) });
    expect(d.callbacks).toHaveLength(1);
    expect(d.callbacks[0]).toMatchObject({ status: 'pending', state: 'confirmed', url: `${r.url}/deposit-callback` });
    expect(d.callbacks[0]!.attempts.map((a) => [a.attempt, a.kind, a.status])).toEqual([[1, 'simulated', null]]);
    // The next attempt waits 1s on the sandbox clock (first wait of the default schedule).
    expect(d.pending.filter((job) => job.kind === 'callback').map((job) => job.due)).toEqual([confirmedAt + 1_000]);
    expect(r.received).toHaveLength(0);

    // Attempt 2, 1s later: the second simulated failure; attempt 3 is 5s after it.
    await advance(t, '999ms');
    expect((await detail(t, id)).callbacks[0]!.attempts).toHaveLength(1);
    await advance(t, '1ms');
    d = await detail(t, id);
    expect(d.callbacks[0]!.status).toBe('pending');
    expect(d.callbacks[0]!.attempts.map((a) => [a.attempt, a.kind, a.status])).toEqual([
      [1, 'simulated', null],
      [2, 'simulated', null],
    ]);
    expect(d.pending.filter((job) => job.kind === 'callback').map((job) => job.due)).toEqual([confirmedAt + 6_000]);
    expect(r.received).toHaveLength(0);

    await advance(t, '4999ms');
    expect(r.received).toHaveLength(0);
    await advance(t, '1ms');

    // Attempt 3 reaches the receiver, signed, with the trade as get returns it.
    expect(r.received).toHaveLength(1);
    const [request] = r.received;
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/deposit-callback');
    expect(header(request!, 'x-sandbox-attempt')).toBe('3');
    expect(verifies(request!)).toBe(true);
    expect(request!.body).toBe(await getBody(t, id));
    expect(JSON.parse(request!.body)).toMatchObject({ id, state: 'confirmed' });

    // The log: two simulated failures (nothing sent, said so), then the delivery.
    const [event] = await callbacksOf(t, id);
    expect(header(request!, 'x-sandbox-event-id')).toBe(event!.id);
    expect(event).toMatchObject({ trade: id, merchant: DEMO.id, status: 'delivered', seq: 1, body: request!.body });
    expect(event!.attempts.map((a) => [a.attempt, a.kind, a.status, a.at])).toEqual([
      [1, 'simulated', null, iso(confirmedAt)],
      [2, 'simulated', null, iso(confirmedAt + 1_000)],
      [3, 'delivery', 200, iso(confirmedAt + 6_000)],
    ]);
    expect(event!.attempts[0]!.error).toBe('Simulated failure 1 of 2: scenario "flaky-callbacks" fails the first 2 attempts (fail_first), so nothing was sent.');
    expect(event!.attempts[1]!.error).toMatch(/^Simulated failure 2 of 2: scenario "flaky-callbacks"/);
    expect(event!.attempts[2]).toMatchObject({ response: 'ok' });
    expect(event!.attempts[2]!.error).toBeUndefined();

    // Delivered means done: nothing more is pending or sent, however far the clock moves.
    expect((await detail(t, id)).pending).toEqual([]);
    await advance(t, '1h');
    expect(r.received).toHaveLength(1);
  });

  it('duplicate-callback (order sbx-dup-…): the receiver gets the same event twice, same id, body and signature', async () => {
    const s = await setup();
    const { t, r } = s;
    const { id, createdAt } = await createMagic(s, 'sbx-dup-', 'duplicate-callback');

    await advance(t, '4999ms');
    expect(r.received).toHaveLength(0);
    await advance(t, '1ms');

    expect((await detail(t, id)).trade.state).toBe('confirmed');
    expect(r.received).toHaveLength(2);
    const [first, second] = r.received;
    expect(header(first!, 'x-sandbox-event-id')).toMatch(new RegExp(`^cb_${id}_1$`));
    expect(header(second!, 'x-sandbox-event-id')).toBe(header(first!, 'x-sandbox-event-id'));
    expect(second!.body).toBe(first!.body);
    expect(header(second!, 'x-signature')).toBe(header(first!, 'x-signature'));
    expect(header(second!, 'x-sandbox-attempt')).toBe('1');
    expect(header(first!, 'x-sandbox-attempt')).toBe('1');
    expect(r.received.map(verifies)).toEqual([true, true]);
    expect(first!.body).toBe(await getBody(t, id));

    // One event, delivered, with the delivery and its duplicate in the log.
    const events = await callbacksOf(t, id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ id: header(first!, 'x-sandbox-event-id'), status: 'delivered', body: first!.body });
    expect(events[0]!.attempts.map((a) => [a.attempt, a.kind, a.status, a.at])).toEqual([
      [1, 'delivery', 200, iso(createdAt + 5_000)],
      [1, 'duplicate', 200, iso(createdAt + 5_000)],
    ]);
    expect(events[0]!.attempts.every((a) => a.error === undefined)).toBe(true);

    await advance(t, '1h');
    expect(r.received).toHaveLength(2);
  });

  it('bad-signature-callback (order sbx-badsig-…): a copy whose X-Signature does not verify, then the correctly signed callback', async () => {
    const s = await setup(verifyingReceiver);
    const { t, r } = s;
    const { id, createdAt } = await createMagic(s, 'sbx-badsig-', 'bad-signature-callback');

    await advance(t, '4999ms');
    expect(r.received).toHaveLength(0);
    await advance(t, '1ms');

    expect((await detail(t, id)).trade.state).toBe('confirmed');
    expect(r.received).toHaveLength(2);
    const [copy, real] = r.received;
    // The copy carries a well-formed signature that is not the merchant's HMAC of the body.
    expect(header(copy!, 'x-signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(verifies(copy!)).toBe(false);
    expect(verifyCallbackSignature(SECOND.secret, copy!.body, header(copy!, 'x-signature'))).toBe(false);
    expect(verifies(real!)).toBe(true);
    expect(header(real!, 'x-signature')).not.toBe(header(copy!, 'x-signature'));
    // Same event, same bytes; only the signature differs.
    expect(copy!.body).toBe(real!.body);
    expect(real!.body).toBe(await getBody(t, id));
    expect(header(copy!, 'x-sandbox-event-id')).toBe(header(real!, 'x-sandbox-event-id'));
    expect([header(copy!, 'x-sandbox-attempt'), header(real!, 'x-sandbox-attempt')]).toEqual(['1', '1']);

    const [event] = await callbacksOf(t, id);
    expect(event).toMatchObject({ id: header(real!, 'x-sandbox-event-id'), status: 'delivered' });
    expect(event!.attempts.map((a) => [a.attempt, a.kind, a.status, a.response, a.at])).toEqual([
      [1, 'bad_signature', 401, 'bad signature', iso(createdAt + 5_000)],
      [1, 'delivery', 200, 'ok', iso(createdAt + 5_000)],
    ]);
    // Refusing the wrong signature is the right answer: neither an error nor a warning.
    expect(event!.attempts[0]!.error).toBeUndefined();
    expect(event!.attempts[0]!.warning).toBeUndefined();

    await advance(t, '1h');
    expect(r.received).toHaveLength(2);
  });

  it('bad-signature-callback: a receiver that accepts the wrong signature is flagged with a warning in the log', async () => {
    const s = await setup(); // answers 200 to everything, without checking X-Signature
    const { t, r } = s;
    const { id } = await createMagic(s, 'sbx-badsig-', 'bad-signature-callback');
    await advance(t, '5s');

    expect(r.received.map(verifies)).toEqual([false, true]);
    const [event] = (await detail(t, id)).callbacks;
    expect(event!.status).toBe('delivered');
    expect(event!.attempts.map((a) => [a.kind, a.status])).toEqual([
      ['bad_signature', 200],
      ['delivery', 200],
    ]);
    expect(event!.attempts[0]!.warning).toMatch(/^The receiver answered 200 to a callback whose X-Signature is wrong\. It must verify X-Signature/);
    expect(event!.attempts[1]!.warning).toBeUndefined();
  });
});
