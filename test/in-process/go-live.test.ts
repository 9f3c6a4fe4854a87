/**
 * `deposit-sandbox go-live` (src/cli/go-live-command.ts) against an in-process sandbox and an
 * in-test receiver with its balance probe: a correct receiver (verifies the signature, credits
 * each order once, never moves an order back) and two broken ones (credits every confirmed it
 * gets; never looks at the signature). The broken ones show `wrong` on the rows they break.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { goLiveCommand } from '../../src/cli/go-live-command.js';
import type { GoLiveChecklist } from '../../src/go-live/go-live-schema.js';
import { startSandbox, type RunningSandbox } from '../../src/index.js';
import { startReceiver, type Receiver } from '../callbacks-receiver.js';
import { DEMO } from '../merchants.js';

const RANK: Record<string, number> = { created: 0, ecom: 0, confirmed: 1, canceled: 1, expired: 1 };
type Flaw = 'none' | 'credits-twice' | 'no-signature-check';

/** A receiver at /callback and its balance probe at /probe, with one flaw or none. */
async function shop(flaw: Flaw): Promise<Receiver & { callback: string; probe: string }> {
  const orders = new Map<string, { state: string | null; credited_cents: number; credited: boolean }>();
  const receiver = await startReceiver((request, res) => {
    if (request.method === 'GET') {
      const order = new URL(request.path, 'http://shop').searchParams.get('order') ?? '';
      const row = orders.get(order);
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ state: row?.state ?? null, credited_cents: row?.credited_cents ?? 0 }));
      return;
    }
    const expected = Buffer.from(createHmac('sha256', DEMO.secret).update(request.body).digest('hex'));
    const got = Buffer.from(String(request.headers['x-signature'] ?? ''));
    if (flaw !== 'no-signature-check' && (got.length !== expected.length || !timingSafeEqual(got, expected))) {
      res.statusCode = 401;
      res.end('bad signature');
      return;
    }
    const trade = JSON.parse(request.body) as { order: string; state: string; amount_cents: number };
    const row = orders.get(trade.order) ?? { state: null, credited_cents: 0, credited: false };
    orders.set(trade.order, row);
    if (row.state === null || (RANK[trade.state] ?? 0.5) >= (RANK[row.state] ?? 0.5)) row.state = trade.state;
    if (trade.state === 'confirmed' && (flaw === 'credits-twice' || !row.credited)) {
      row.credited = true;
      row.credited_cents += trade.amount_cents;
    }
    res.end('ok');
  });
  return Object.assign(receiver, { callback: `${receiver.url}/callback`, probe: `${receiver.url}/probe` });
}

let sandbox: RunningSandbox | undefined;
const receivers: Receiver[] = [];
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function goLive(flaw: Flaw): Promise<{ checklist: GoLiveChecklist; text: string }> {
  sandbox = await startSandbox();
  const receiver = await shop(flaw);
  receivers.push(receiver);
  let text = '';
  const checklist = await goLiveCommand({ url: sandbox.url, source: 'flag' }, { receiver: receiver.callback, probe: receiver.probe, seed: '42', runs: '30' }, (chunk) => (text += chunk));
  return { checklist, text };
}

const statusOf = (checklist: GoLiveChecklist) => Object.fromEntries(checklist.rows.map((row) => [row.id, row.status]));

describe('deposit-sandbox go-live', () => {
  it('a correct receiver meets every callback row the check and the fuzzer show, and nothing is wrong', async () => {
    const { checklist, text } = await goLive('none');
    const status = statusOf(checklist);
    for (const id of ['callback.confirmed', 'callback.canceled', 'callback.duplicate', 'callback.overlapping', 'callback.bad_signature', 'callback.older_state', 'credits.checked']) {
      expect(status[id], id).toBe('met');
    }
    expect(checklist.counts.wrong).toBe(0);
    // The merchant's tests never used this sandbox: the rows only they can meet say how.
    expect(status['create.refused_401']).toBe('not_met');
    expect(checklist.ready).toBe(false);
    expect(text).toContain('Go-live checklist of Demo Shop (6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51)');
    expect(text).toMatch(/\n {2}not met +create\.refused_401 +a create refused with 401\n {11}to exercise it: an order starting with sbx-unauth-/);
    expect(text).toMatch(/\n {2}met +callback\.duplicate +a callback delivered twice/);
  });

  it('a receiver that credits every confirmed it gets: the duplicate and credits rows are wrong, with the fuzzer cause and its replay', async () => {
    const { checklist, text } = await goLive('credits-twice');
    const status = statusOf(checklist);
    expect(status['callback.duplicate']).toBe('wrong');
    expect(status['credits.checked']).toBe('wrong');
    expect(status['callback.bad_signature']).toBe('met');
    expect(checklist.ready).toBe(false);
    expect(text).toMatch(
      /\n {2}WRONG +callback\.duplicate +a callback delivered twice, acknowledged both times\n {11}fuzzer: credited \d+ twice: .*\(check-callback --seed 42 --path \S+ replays it\)\n/,
    );
  });

  it('a receiver that never checks the signature: the forged-callback row is wrong, by the check and by the fuzzer', async () => {
    const { checklist } = await goLive('no-signature-check');
    const row = checklist.rows.find((r) => r.id === 'callback.bad_signature');
    expect(row?.status).toBe('wrong');
    expect(row?.evidence.filter((e) => e.status === 'wrong').map((e) => e.source)).toEqual(expect.arrayContaining(['check-callback', 'fuzzer']));
    expect(statusOf(checklist)['callback.duplicate']).toBe('met');
  });

  it('without --receiver it reads the coverage only; --probe alone is refused with what to do', async () => {
    sandbox = await startSandbox();
    let text = '';
    const checklist = await goLiveCommand({ url: sandbox.url, source: 'flag' }, {}, (chunk) => (text += chunk));
    expect(checklist.receiver).toBeUndefined();
    expect(checklist.counts).toEqual({ met: 0, not_met: 15, wrong: 0 });
    expect(text).toContain('No receiver checked (give --receiver <url>).');
    await expect(goLiveCommand({ url: sandbox.url, source: 'flag' }, { probe: 'http://127.0.0.1:1/probe' })).rejects.toThrow(
      '--probe is read by the fuzzer go-live runs on your receiver: give --receiver <url> with it',
    );
  });
});
