import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { it, test } from '../temp-folder.js';
import { verifyCallbackSignature } from '../../src/auth/signature.js';
import type { CallbackEvent } from '../../src/store/callback-records.js';
import { startReceiver, type Receiver } from '../callbacks-receiver.js';
import { DEMO, makeSandbox, p2pBody, type TestSandbox } from '../support.js';

/** Scenario callback behaviours (fail_first, delay, duplicate, bad_signature), picked with X-Sandbox-Scenario. */
const SCENARIOS = `
scenarios:
  - name: test-fail-first
    description: The first two attempts fail.
    callbacks:
      fail_first: 2
  - name: test-delay
    description: The first attempt waits 30 seconds.
    callbacks:
      delay: 30s
  - name: test-duplicate
    description: Every delivered callback is sent twice.
    callbacks:
      duplicate: true
  - name: test-bad-signature
    description: A copy with a wrong signature goes first.
    callbacks:
      bad_signature: true
`;

/** The scenario folder the file's sandboxes load. */
let folder: string;
test.beforeAll(async ({ fileFolder }) => {
  folder = fileFolder;
  await writeFile(join(folder, 'chaos.yaml'), SCENARIOS);
});

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A trade of `scenario` whose callback goes to a new receiver; confirmed by the admin API. */
async function confirmedTrade(scenario: string, respond?: Receiver['respond']): Promise<{ t: TestSandbox; r: Receiver; id: string }> {
  const r = await startReceiver(respond);
  cleanups.push(() => r.close());
  const t = await makeSandbox({ clock: 'manual', scenarios: folder });
  cleanups.push(() => t.close());
  const created = await t.post('/api/v1/trades/deposit/create', p2pBody({ callback_url: `${r.url}/cb` }), { 'X-Sandbox-Scenario': scenario });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await t.app.request(`/_sandbox/trades/${id}/transition`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ state: 'confirmed' }),
  });
  return { t, r, id };
}

const eventOf = (t: TestSandbox, id: string): CallbackEvent => t.sandbox.callbacks.forTrade(id)[0]!;
const signed = (request: Receiver['received'][number]) => verifyCallbackSignature(DEMO.secret, request.body, request.headers['x-signature'] as string);

describe('scenario callback behaviour', () => {
  it('fail_first: the first N attempts are simulated failures, the retries follow the schedule', async () => {
    const { t, r, id } = await confirmedTrade('test-fail-first');
    await t.sandbox.scheduler.advance(0);
    await t.sandbox.scheduler.advance(1_000);
    expect(r.received).toHaveLength(0);
    await t.sandbox.scheduler.advance(4_999);
    expect(r.received).toHaveLength(0);
    await t.sandbox.scheduler.advance(1);
    expect(r.received).toHaveLength(1);
    expect(r.received[0]!.headers['x-sandbox-attempt']).toBe('3');

    const event = eventOf(t, id);
    expect(event.status).toBe('delivered');
    expect(event.attempts.map((a) => [a.attempt, a.kind, a.status])).toEqual([
      [1, 'simulated', null],
      [2, 'simulated', null],
      [3, 'delivery', 200],
    ]);
    expect(event.attempts[0]!.error).toMatch(/Simulated failure 1 of 2: scenario "test-fail-first" fails the first 2 attempts/);
  });

  it('delay: the first attempt waits that long on the sandbox clock', async () => {
    const { t, r, id } = await confirmedTrade('test-delay');
    await t.sandbox.scheduler.advance(29_999);
    expect(r.received).toHaveLength(0);
    expect(eventOf(t, id).status).toBe('pending');
    await t.sandbox.scheduler.advance(1);
    expect(r.received).toHaveLength(1);
    expect(eventOf(t, id).status).toBe('delivered');
  });

  it('duplicate: after delivery the same request is sent again, and both are logged', async () => {
    const { t, r, id } = await confirmedTrade('test-duplicate');
    const delivered: string[] = [];
    t.sandbox.callbacks.on('delivered', (event) => delivered.push(event.id));
    await t.sandbox.scheduler.advance(0);

    expect(r.received).toHaveLength(2);
    const [first, second] = r.received;
    for (const header of ['x-sandbox-event-id', 'x-signature', 'x-sandbox-attempt']) {
      expect(second!.headers[header]).toBe(first!.headers[header]);
    }
    expect(second!.body).toBe(first!.body);
    expect(signed(second!)).toBe(true);
    const event = eventOf(t, id);
    expect(event.status).toBe('delivered');
    expect(event.attempts.map((a) => [a.kind, a.status])).toEqual([
      ['delivery', 200],
      ['duplicate', 200],
    ]);
    expect(delivered).toEqual([event.id]);
  });

  it('bad_signature: a copy with a wrong X-Signature goes first; refusing it is logged as right', async () => {
    const verifying: Receiver['respond'] = (request, res) => {
      res.statusCode = signed(request) ? 200 : 401;
      res.end(res.statusCode === 200 ? 'ok' : 'bad signature');
    };
    const { t, r, id } = await confirmedTrade('test-bad-signature', verifying);
    await t.sandbox.scheduler.advance(0);

    expect(r.received.map(signed)).toEqual([false, true]);
    expect(r.received[0]!.body).toBe(r.received[1]!.body);
    const event = eventOf(t, id);
    expect(event.status).toBe('delivered');
    expect(event.attempts.map((a) => [a.kind, a.status, a.response])).toEqual([
      ['bad_signature', 401, 'bad signature'],
      ['delivery', 200, 'ok'],
    ]);
    expect(event.attempts[0]!.warning).toBeUndefined();
    expect(event.attempts[0]!.error).toBeUndefined();
  });

  it('bad_signature: a receiver that accepts the wrong signature is flagged in the log', async () => {
    const { t, r, id } = await confirmedTrade('test-bad-signature');
    await t.sandbox.scheduler.advance(0);
    expect(r.received).toHaveLength(2);
    const [copy] = eventOf(t, id).attempts;
    expect(copy).toMatchObject({ kind: 'bad_signature', status: 200 });
    expect(copy!.warning).toMatch(/answered 200 to a callback whose X-Signature is wrong\. It must verify X-Signature/);
  });

  it('a replay is sent plainly, without the scenario behaviour', async () => {
    const { t, r, id } = await confirmedTrade('test-duplicate');
    await t.sandbox.scheduler.advance(0);
    const replay = t.sandbox.callbacks.replay(eventOf(t, id).id);
    await t.sandbox.scheduler.advance(0);
    expect(r.received.map((q) => q.headers['x-sandbox-event-id'])).toEqual([eventOf(t, id).id, eventOf(t, id).id, replay!.id]);
  });
});
