/**
 * With a manual clock, a receiver that hangs holds only its own trade's callbacks:
 * `POST /_sandbox/clock/advance` and other trades' due attempts go on without waiting for
 * the callback timeout (here 60 s, longer than the test may take).
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallbackEvent } from '../../src/store/callback-records.js';
import { startReceiver, type Receiver } from '../callbacks-receiver.js';
import { makeSandbox, p2pBody, type TestSandbox } from '../support.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(respond: Receiver['respond']): Promise<Receiver> {
  const r = await startReceiver(respond);
  cleanups.push(() => r.close());
  return r;
}

async function confirmedTrade(t: TestSandbox, callbackUrl: string): Promise<string> {
  const res = await t.post('/api/v1/trades/deposit/create', p2pBody({ callback_url: callbackUrl }));
  expect(res.status).toBe(201);
  const { id } = (await res.json()) as { id: string };
  const moved = await t.app.request(`/_sandbox/trades/${id}/transition`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ state: 'confirmed' }),
  });
  expect(moved.status).toBe(200);
  return id;
}

describe('manual clock and a receiver that hangs', () => {
  it("advance and the other trade's retry do not wait for the hanging receiver's timeout", async () => {
    const t = await makeSandbox({ clock: 'manual', callbackTimeout: '60s', callbackRetries: '1s,5s' });
    cleanups.push(() => t.close());
    const held: ServerResponse[] = [];
    const hanging = await receiver((_request, res) => void held.push(res));
    let answers = 0;
    const flaky = await receiver((_request, res) => {
      res.statusCode = ++answers === 1 ? 500 : 200;
      res.end('ok');
    });
    cleanups.push(async () => {
      for (const res of held) res.destroy();
    });

    const stuck = await confirmedTrade(t, hanging.url);
    const other = await confirmedTrade(t, flaky.url);
    // Both first attempts are due at once: the hanging one is on the wire, the other failed (500).
    await hanging.waitFor(1);
    await flaky.waitFor(1);

    // The other trade's retry falls due 1 s later on the sandbox clock.
    const advanced = await t.app.request('/_sandbox/clock/advance', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ by: '2s' }),
    });
    expect(advanced.status).toBe(200);
    // advance answered while the hanging receiver still holds its request
    expect(held).toHaveLength(1);
    // its connection is still open: the sandbox did not give up on it to run the advance
    expect(held[0]!.req.socket.destroyed).toBe(false);

    const [otherEvent] = t.sandbox.callbacks.forTrade(other) as [CallbackEvent];
    expect(otherEvent.status).toBe('delivered');
    expect(otherEvent.attempts.map((attempt) => attempt.status)).toEqual([500, 200]);
    const [stuckEvent] = t.sandbox.callbacks.forTrade(stuck) as [CallbackEvent];
    expect(stuckEvent).toMatchObject({ status: 'pending', attempts: [] });
    expect(hanging.received).toHaveLength(1);
  });
});
