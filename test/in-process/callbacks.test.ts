import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect } from 'vitest';
import { it } from '../temp-folder.js';
import { verifyCallbackSignature } from '../../src/auth/signature.js';
import type { CallbackEvent } from '../../src/store/callback-records.js';
import type { SandboxOptionsInput } from '../../src/config/options.js';
import { startReceiver, type Receiver } from '../callbacks-receiver.js';
import { DEMO, makeSandbox, p2pBody, type TestSandbox } from '../support.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(respond?: Receiver['respond']): Promise<Receiver> {
  const r = await startReceiver(respond);
  cleanups.push(() => r.close());
  return r;
}

async function sandbox(options: SandboxOptionsInput = {}): Promise<TestSandbox> {
  const t = await makeSandbox({ clock: 'manual', ...options });
  cleanups.push(() => t.close());
  return t;
}

async function createTrade(t: TestSandbox, callbackUrl: string | undefined): Promise<{ id: string }> {
  const res = await t.post('/api/v1/trades/deposit/create', p2pBody(callbackUrl ? { callback_url: callbackUrl } : {}));
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string };
}

async function transition(t: TestSandbox, id: string, state: string): Promise<Response> {
  return t.app.request(`/_sandbox/trades/${id}/transition`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ state }),
  });
}

async function events(t: TestSandbox, trade: string): Promise<CallbackEvent[]> {
  const res = await t.get(`/_sandbox/trades/${trade}`);
  return ((await res.json()) as { callbacks: CallbackEvent[] }).callbacks;
}

const advance = (t: TestSandbox, ms: number) => t.sandbox.scheduler.advance(ms);

/** A receiver that answers with these statuses in turn (the last one repeats). */
const statuses =
  (...codes: number[]): Receiver['respond'] =>
  (_request, res) => {
    const code = codes.length > 1 ? codes.shift()! : codes[0]!;
    res.statusCode = code;
    res.end(`answer ${code}`);
  };

describe('callback delivery', () => {
  it('posts the trade exactly as get returns it, signed with the merchant secret, with event headers', async () => {
    const r = await receiver();
    const t = await sandbox();
    const trade = await createTrade(t, `${r.url}/hooks/deposit`);
    expect((await transition(t, trade.id, 'confirmed')).status).toBe(200);
    await advance(t, 0);

    expect(r.received).toHaveLength(1);
    const [request] = r.received;
    const get = await t.get(`/api/v1/trades/${DEMO.id}/${trade.id}`);
    expect(request!.body).toBe(await get.text());
    expect(JSON.parse(request!.body)).toMatchObject({ id: trade.id, state: 'confirmed' });
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/hooks/deposit');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(verifyCallbackSignature(DEMO.secret, request!.body, request!.headers['x-signature'] as string)).toBe(true);
    expect(verifyCallbackSignature('another-secret', request!.body, request!.headers['x-signature'] as string)).toBe(false);
    expect(request!.headers['x-sandbox-attempt']).toBe('1');

    const [event] = await events(t, trade.id);
    expect(request!.headers['x-sandbox-event-id']).toBe(event!.id);
    expect(event).toMatchObject({ trade: trade.id, merchant: DEMO.id, state: 'confirmed', status: 'delivered', seq: 1, body: request!.body });
    expect(event!.attempts).toEqual([expect.objectContaining({ attempt: 1, kind: 'delivery', status: 200, response: 'ok', at: t.sandbox.clock.nowIso() })]);
    expect(event!.attempts[0]!.error).toBeUndefined();
  });

  it('sends nothing for a trade without callback_url', async () => {
    const r = await receiver();
    const t = await sandbox();
    const trade = await createTrade(t, undefined);
    await transition(t, trade.id, 'canceled');
    await advance(t, 60_000);
    expect(r.received).toHaveLength(0);
    expect(await events(t, trade.id)).toEqual([]);
  });

  it('retries after 500s on the sandbox schedule, only when the clock reaches each retry', async () => {
    const r = await receiver(statuses(500, 500, 204));
    const t = await sandbox();
    const trade = await createTrade(t, `${r.url}/cb`);
    const started = t.sandbox.clock.now();
    await transition(t, trade.id, 'confirmed');
    await advance(t, 0);
    expect(r.received).toHaveLength(1);

    await advance(t, 999);
    expect(r.received).toHaveLength(1);
    await advance(t, 1); // 1 s after the first attempt
    expect(r.received).toHaveLength(2);
    await advance(t, 4_999);
    expect(r.received).toHaveLength(2);
    await advance(t, 1); // 5 s after the second
    expect(r.received).toHaveLength(3);
    await advance(t, 600_000);
    expect(r.received).toHaveLength(3);

    expect(r.received.map((q) => q.headers['x-sandbox-attempt'])).toEqual(['1', '2', '3']);
    expect(new Set(r.received.map((q) => q.headers['x-sandbox-event-id'])).size).toBe(1);
    const [event] = await events(t, trade.id);
    expect(event!.status).toBe('delivered');
    expect(event!.attempts.map((a) => [a.attempt, a.status, a.at])).toEqual([
      [1, 500, new Date(started).toISOString()],
      [2, 500, new Date(started + 1_000).toISOString()],
      [3, 204, new Date(started + 6_000).toISOString()],
    ]);
    expect(event!.attempts[0]!.error).toMatch(/answered 500; only a 2xx/);
    expect(event!.attempts[0]!.response).toBe('answer 500');
  });

  it('marks the event failed after the last retry of --callback-retries, and says so', async () => {
    const r = await receiver(statuses(503));
    const t = await sandbox({ callbackRetries: '1s,2s' });
    const failed: CallbackEvent[] = [];
    t.sandbox.callbacks.on('failed', (event) => failed.push(event));
    const trade = await createTrade(t, `${r.url}/cb`);
    await transition(t, trade.id, 'expired');
    await advance(t, 0);
    await advance(t, 3_000);
    await advance(t, 3_600_000);
    expect(r.received).toHaveLength(3);
    const [event] = await events(t, trade.id);
    expect(event!.status).toBe('failed');
    expect(event!.attempts).toHaveLength(3);
    expect(failed.map((e) => e.id)).toEqual([event!.id]);
    const pending = await (await t.get('/_sandbox/clock')).json();
    expect(pending).toMatchObject({ pending: 0, next_due: null });
  });

  it('replays an event as a new event with the same body, signed again, sent now', async () => {
    const r = await receiver();
    const t = await sandbox();
    const trade = await createTrade(t, `${r.url}/cb`);
    await transition(t, trade.id, 'confirmed');
    await advance(t, 0);
    const [original] = await events(t, trade.id);

    const res = await t.app.request(`/_sandbox/callbacks/${original!.id}/replay`, { method: 'POST' });
    expect(res.status).toBe(202);
    const { callback } = (await res.json()) as { callback: CallbackEvent };
    expect(callback).toMatchObject({ replay_of: original!.id, body: original!.body, state: 'confirmed', seq: 2, status: 'pending' });
    expect(callback.id).not.toBe(original!.id);
    await advance(t, 0);

    expect(r.received).toHaveLength(2);
    const replayed = r.received[1]!;
    expect(replayed.body).toBe(original!.body);
    expect(replayed.headers['x-sandbox-event-id']).toBe(callback.id);
    expect(replayed.headers['x-sandbox-attempt']).toBe('1');
    expect(verifyCallbackSignature(DEMO.secret, replayed.body, replayed.headers['x-signature'] as string)).toBe(true);
    expect((await events(t, trade.id)).map((e) => e.status)).toEqual(['delivered', 'delivered']);
  });
});

describe('callback ordering and concurrency', () => {
  it("holds a trade's next event until the previous one is answered", async () => {
    const held: ServerResponse[] = [];
    const r = await receiver((_request, res) => {
      if (held.length === 0) held.push(res);
      else res.end('ok');
    });
    const t = await sandbox();
    const trade = await createTrade(t, `${r.url}/cb`);
    await transition(t, trade.id, 'confirmed');
    await r.waitFor(1); // the first callback is on the wire, unanswered
    const [first] = await events(t, trade.id);
    const replay = (await (await t.app.request(`/_sandbox/callbacks/${first!.id}/replay`, { method: 'POST' })).json()) as { callback: CallbackEvent };

    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(r.received).toHaveLength(1);
    const detail = (await (await t.get(`/_sandbox/trades/${trade.id}`)).json()) as { pending: Array<{ data: { event: string } }> };
    expect(detail.pending.some((job) => job.data.event === replay.callback.id)).toBe(false);

    held[0]!.end('ok');
    await r.waitFor(2);
    await advance(t, 0);
    expect(r.received.map((q) => q.headers['x-sandbox-event-id'])).toEqual([first!.id, replay.callback.id]);
  });

  it('sends a later event only after the earlier one is delivered through its retries', async () => {
    const r = await receiver(statuses(500, 200));
    const t = await sandbox();
    const trade = await createTrade(t, `${r.url}/cb`);
    await transition(t, trade.id, 'confirmed');
    await advance(t, 0);
    const [first] = await events(t, trade.id);
    expect(first!.status).toBe('pending');
    await t.app.request(`/_sandbox/callbacks/${first!.id}/replay`, { method: 'POST' });
    await advance(t, 0);
    expect(r.received).toHaveLength(1); // the replay waits for the retry of the first event

    await advance(t, 1_000);
    expect(r.received.map((q) => [q.headers['x-sandbox-event-id'], q.headers['x-sandbox-attempt']])).toEqual([
      [first!.id, '1'],
      [first!.id, '2'],
      [expect.stringMatching(/_2$/), '1'],
    ]);
  });

  it('delivers to other trades while one receiver holds its request (real clock)', async () => {
    const held: ServerResponse[] = [];
    const r = await receiver((request, res) => {
      if (request.path === '/slow') held.push(res);
      else res.end('ok');
    });
    const t = await sandbox({ clock: 'real' });
    const slow = await createTrade(t, `${r.url}/slow`);
    const fast = await createTrade(t, `${r.url}/fast`);
    await transition(t, slow.id, 'confirmed');
    await r.waitFor(1);
    const delivered = once(t.sandbox.callbacks, 'delivered');
    await transition(t, fast.id, 'confirmed');
    const [event] = (await delivered) as [CallbackEvent];
    expect(event.trade).toBe(fast.id);
    expect(held).toHaveLength(1); // still unanswered
    held[0]!.end('ok');
    await once(t.sandbox.callbacks, 'delivered');
    expect((await events(t, slow.id))[0]!.status).toBe('delivered');
  });
});

describe('callbacks across a restart', () => {
  it('runs a stored pending retry in a new sandbox over the same data', async ({ folder: data }) => {
    const r = await receiver(statuses(500, 200));
    const first = await makeSandbox({ clock: 'manual', inMemory: false, data });
    const trade = await createTrade(first, `${r.url}/cb`);
    await transition(first, trade.id, 'confirmed');
    await first.sandbox.scheduler.advance(0);
    expect(r.received).toHaveLength(1);
    await first.close();

    const second = await sandbox({ inMemory: false, data });
    const [stored] = await events(second, trade.id);
    expect(stored).toMatchObject({ status: 'pending', attempts: [expect.objectContaining({ status: 500 })] });
    await advance(second, 999);
    expect(r.received).toHaveLength(1);
    await advance(second, 1);
    expect(r.received.map((q) => q.headers['x-sandbox-attempt'])).toEqual(['1', '2']);
    expect((await events(second, trade.id))[0]!.status).toBe('delivered');
  });

  it('runs a retry that falls due while the failed attempt is still being saved (real clock, retry after 0 s)', async ({ folder: data }) => {
    const r = await receiver(statuses(500, 204));
    const t = await sandbox({ clock: 'real', inMemory: false, data, callbackRetries: '0s' });
    const delivered = once(t.sandbox.callbacks, 'delivered');
    const trade = await createTrade(t, `${r.url}/cb`);
    await transition(t, trade.id, 'confirmed');
    await delivered; // before the fix the retry job ran while the attempt was saving, was dropped, and the event stayed pending
    expect(r.received.map((q) => q.headers['x-sandbox-attempt'])).toEqual(['1', '2']);
    const [event] = await events(t, trade.id);
    expect(event).toMatchObject({ status: 'delivered', attempts: [expect.objectContaining({ status: 500 }), expect.objectContaining({ status: 204 })] });
  });

  it('sends again after a restart an attempt that was in flight when the sandbox stopped', async ({ folder: data }) => {
    const r = await receiver(() => undefined); // never answers
    const first = await makeSandbox({ clock: 'real', inMemory: false, data });
    const trade = await createTrade(first, `${r.url}/cb`);
    await transition(first, trade.id, 'confirmed');
    await r.waitFor(1);
    await first.close(); // aborts the unanswered attempt and keeps it scheduled

    r.respond = (_request, res) => void res.end('ok');
    const second = await sandbox({ clock: 'real', inMemory: false, data }); // runs overdue jobs on start
    await second.sandbox.callbacks.idle();
    expect(r.received.map((q) => q.headers['x-sandbox-attempt'])).toEqual(['1', '1']);
    const [event] = await events(second, trade.id);
    expect(event).toMatchObject({ status: 'delivered', attempts: [expect.objectContaining({ attempt: 1, status: 200 })] });
  });

  it('with a manual clock, stopping during an advance abandons the attempt without sending it again', async ({ folder: data }) => {
    const r = await receiver(() => undefined); // never answers
    const first = await makeSandbox({ clock: 'manual', inMemory: false, data });
    const trade = await createTrade(first, `${r.url}/cb`);
    await transition(first, trade.id, 'confirmed');
    const advancing = first.sandbox.scheduler.advance(60_000);
    await r.waitFor(1);
    await first.close();
    await advancing;
    expect(r.received).toHaveLength(1);

    r.respond = (_request, res) => void res.end('ok');
    const second = await sandbox({ inMemory: false, data });
    await advance(second, 0);
    expect(r.received.map((q) => q.headers['x-sandbox-attempt'])).toEqual(['1', '1']);
    expect((await events(second, trade.id))[0]).toMatchObject({ status: 'delivered', attempts: [expect.objectContaining({ attempt: 1, status: 200 })] });
  });
});
