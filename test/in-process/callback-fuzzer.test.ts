/**
 * The callback fuzzer against the reference receivers of examples/receivers (each on
 * 127.0.0.1, port 0, with its balance probe): every naive one is flagged with its cause,
 * the correct one passes 1,000 schedules, and the same seed gives the same transcript.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import { fuzzReceiver, type FuzzReport } from '../../src/callback-fuzzer/fuzz-receiver.js';
import { ProbeError, readProbe } from '../../src/balance-probe/read-probe.js';
import { formatFuzzHeader, formatFuzzReport } from '../../src/callback-fuzzer/format-fuzz.js';
import { verifyCallbackSignature } from '../../src/auth/signature.js';
import { tradeSchema } from '../../src/trades/trade.js';
import { startReceiver } from '../callbacks-receiver.js';
import { DEMO, makeSandbox, p2pBody, SECOND, UUID_PATTERN } from '../support.js';
type Handle = (request: unknown, ledger: unknown) => number | Promise<number>;
/** A reference receiver of examples/receivers (plain JavaScript, loaded by URL). */
const example = async <T = { handle: Handle }>(name: string): Promise<T> => (await import(new URL(`../../examples/receivers/${name}.mjs`, import.meta.url).href)) as T;
const { createReceiver, createLedger } = await example<{ createReceiver: (handle: Handle, ledger?: unknown) => Server; createLedger: (options?: { latencyMs?: number }) => unknown }>('receiver-kit');
const [correct, noDedup, noSignatureCheck, creditsOnCreated, creditsBeforeVerify, checkThenInsert] = await Promise.all(
  ['correct', 'no-dedup', 'no-signature-check', 'credits-on-created', 'credits-before-verify', 'check-then-insert'].map((name) => example(name)),
);
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function start(handle: Handle, ledger?: unknown): Promise<{ url: string; probe: string }> {
  const server = createReceiver(handle, ledger);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `${base}/callback`, probe: `${base}/probe` };
}

const fuzz = async (handle: Handle, extra: Partial<Parameters<typeof fuzzReceiver>[0]> = {}, ledger?: unknown): Promise<FuzzReport> => {
  const { url, probe } = await start(handle, ledger);
  return fuzzReceiver({ url, probe, merchant: { id: DEMO.id, secret: DEMO.secret }, otherSecret: SECOND.secret, publicUrl: 'http://127.0.0.1:4242', timeoutMs: 5_000, seed: 42, runs: 100, ...extra });
};

const NAIVE: Array<[string, Handle, RegExp]> = [
  ['no-dedup', noDedup!.handle, /^credited \d+ twice: the receiver does not de-duplicate by X-Sandbox-Event-Id or by trade id and state/],
  ['no-signature-check', noSignatureCheck!.handle, /the receiver does not verify X-Signature/],
  ['credits-on-created', creditsOnCreated!.handle, /^credited \d+ for T1, which was never confirmed \(it received (canceled|expired)\): credit only when a genuine callback says "confirmed"/],
  [
    'check-then-insert',
    checkThenInsert!.handle,
    /^credited \d+ twice when two deliveries of one event overlapped: the receiver checks and then writes without a unique key or a lock; make the write itself refuse the second \(a unique index on the event id or on trade id \+ state, INSERT … ON CONFLICT DO NOTHING, or SELECT … FOR UPDATE\) \(T1\)$/,
  ],
  ['credits-before-verify', creditsBeforeVerify!.handle, /^credited \d+ for T\d from a forged callback it answered 401 to: the receiver credits before verifying the signature/],
];

describe('fuzzReceiver with a balance probe', () => {
  it.each(NAIVE)('flags the naive receiver %s with its cause, shrunk to a short schedule', async (_name, handle, cause) => {
    const report = await fuzz(handle);
    expect(report.passed).toBe(false);
    const failure = report.failure!;
    expect(failure.violations[0]!.cause).toMatch(cause);
    expect(failure.schedule.steps.length).toBeLessThanOrEqual(3);
    expect(failure.schedule.trades.length).toBeLessThanOrEqual(2);
    const text = formatFuzzReport(report);
    expect(text).toContain(`FLAGGED: ${failure.violations[0]!.cause}.`);
    expect(text).toContain(`Replay it: --seed 42 --path ${failure.path}\n`);
  });

  it('shows a receiver that credits every delivery exactly two requests for one event, whatever the seed', async () => {
    // Seeds 1, 9, 21 and 28 first fail with a group of two and one more delivery: the last step must go too.
    for (const seed of [1, 9, 21, 28, 42]) {
      const report = await fuzz(noDedup!.handle, { seed });
      const text = formatFuzzReport(report);
      const requests = [...text.matchAll(/^ +\d+\. (T\d+) confirmed +event (T\d+#\d+) attempt (\d+) /gm)].map((m) => m.slice(1));
      expect({ seed, requests }).toEqual({
        seed,
        requests: [
          ['T1', 'T1#1', '1'],
          ['T1', 'T1#1', '2'],
        ],
      });
      expect(text).toMatch(/\n {2}T1: amount_cents 100, ends confirmed\n {3}1\. /);
      expect(text).toContain('\n  probe T1: state confirmed, credited_cents 200\n');
    }
  });

  it('raises no false alarm on the correct receiver over 1,000 schedules', { timeout: 120_000 }, async () => {
    const report = await fuzz(correct!.handle, { runs: 1000, seed: 7 });
    expect(report.failure?.violations).toBeUndefined();
    expect(report).toMatchObject({ passed: true, schedules: 1000 });
    expect(formatFuzzReport(report)).toBe('No violation in 1000 schedules.\n');
  });

  it('the same seed gives a byte-identical transcript, three runs, also with overlapping deliveries (fresh receivers on other ports)', async () => {
    for (const handle of [noDedup!.handle, checkThenInsert!.handle]) {
      const transcript = async () => {
        const report = await fuzz(handle, { seed: 99 });
        return formatFuzzHeader(report.merchant, report.seed, report.runs, report.probe) + formatFuzzReport(report);
      };
      const first = await transcript();
      expect(first).toMatch(/^Fuzzing the callback receiver as merchant 6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51: seed 99, 100 schedules, balance probe on\n\nFLAGGED: credited/);
      expect(await transcript()).toBe(first);
      expect(await transcript()).toBe(first);
    }
  });

  it('the correct receiver stays clean when its database is slow (10 ms round trips) and deliveries of one trade are in it together', { timeout: 60_000 }, async () => {
    type Call = (order: string, ...rest: unknown[]) => Promise<unknown>;
    const ledger = createLedger({ latencyMs: 10 }) as { insertCredit: Call; advanceState: Call };
    // Round trips for one order under way at once: two deliveries of a trade inside the database together.
    const inFlight = new Map<string, number>();
    let together = 0;
    const watched =
      (call: Call): Call =>
      async (order, ...rest) => {
        const now = (inFlight.get(order) ?? 0) + 1;
        inFlight.set(order, now);
        if (now > 1) together++;
        try {
          return await call(order, ...rest);
        } finally {
          inFlight.set(order, inFlight.get(order)! - 1);
        }
      };
    const report = await fuzz(correct!.handle, { runs: 60, seed: 11 }, { ...ledger, insertCredit: watched(ledger.insertCredit), advanceState: watched(ledger.advanceState) });
    expect(report.failure?.violations).toBeUndefined();
    expect(report.passed).toBe(true);
    expect(together).toBeGreaterThan(0);
  });

  it('an at_once group is on the wire before any answer, is printed as simultaneous, and the order of its answers does not change the verdict', async () => {
    const schedule = {
      trades: [{ amount_cents: 31250, final: 'confirmed' as const }],
      steps: [{ trade: 0, kind: 'at_once' as const, group: ['deliver' as const, 'deliver' as const, 'replay' as const] }],
    };
    /** A receiver that answers nothing until all three requests have arrived, then answers them in `order`. */
    const run = async (order: number[]) => {
      const held: Array<() => void> = [];
      const handle: Handle = async (request, ledger) => {
        const status = await checkThenInsert!.handle(request, ledger);
        if (held.length < 3) {
          await new Promise<void>((resolve) => {
            held.push(resolve);
            if (held.length === 3) {
              // Answer in the given order, each once the previous one has been answered.
              const next = (k: number) => {
                if (k >= order.length) return;
                held[order[k]!]!();
                setImmediate(() => next(k + 1));
              };
              next(0);
            }
          });
        }
        return status;
      };
      const report = await fuzz(handle, { schedule, timeoutMs: 60_000 });
      return { text: formatFuzzReport(report), report };
    };
    const inOrder = await run([0, 1, 2]);
    const reversed = await run([2, 1, 0]);
    expect(reversed.text).toBe(inOrder.text);
    expect(inOrder.report.failure!.violations[0]!.cause).toMatch(/^credited 31250 3 times when 3 deliveries of one event overlapped/);
    expect(inOrder.text).toMatch(/ 1\. T1 confirmed event T1#1 attempt 1 {2}delivered \[at once with 2, 3\] +-> 200\n/);
    expect(inOrder.text).toMatch(/ 2\. T1 confirmed event T1#1 attempt 2 {2}delivered again \(same event\) \[at once with 1, 3\] +-> 200\n/);
    expect(inOrder.text).toMatch(/ 3\. T1 confirmed event T1#2 attempt 1 {2}replayed \(new event id\) \[at once with 1, 2\] +-> 200\n/);
  });

  it('a timeout step sends the retry while the receiver still works on the abandoned attempt', async () => {
    const events: string[] = [];
    let retryArrived: () => void = () => undefined;
    const retry = new Promise<void>((resolve) => {
      retryArrived = resolve;
    });
    const handle: Handle = async (request, ledger) => {
      const which = events.length === 0 ? 'first' : 'retry';
      events.push(`${which} arrived`);
      // The first attempt is still being worked on when the retry comes (it waits for it).
      if (which === 'first') await retry;
      else retryArrived();
      events.push(`${which} answered`);
      return correct!.handle(request, ledger);
    };
    const schedule = { trades: [{ amount_cents: 500, final: 'confirmed' as const }], steps: [{ trade: 0, kind: 'timeout' as const }] };
    const report = await fuzz(handle, { schedule, timeoutMs: 60_000 });
    expect(report.passed).toBe(true);
    expect(events).toEqual(['first arrived', 'retry arrived', 'retry answered', 'first answered']);
    const byNoDedup = formatFuzzReport(await fuzz(noDedup!.handle, { schedule }));
    expect(byNoDedup).toContain('   1. T1 confirmed event T1#1 attempt 1  abandoned at the callback timeout    -> not awaited\n');
    expect(byNoDedup).toContain('   2. T1 confirmed event T1#1 attempt 2  retried while attempt 1 still runs   -> 200\n');
    // A receiver that credits every delivery, overlapping or not, is told to de-duplicate, not that it races.
    expect(byNoDedup).toMatch(/FLAGGED: credited 500 twice: the receiver does not de-duplicate/);
  });

  it('replays a failure from its seed and path, and from the printed list', async () => {
    const report = await fuzz(noDedup!.handle);
    const failure = report.failure!;
    const byPath = await fuzz(noDedup!.handle, { path: failure.path });
    expect(byPath.failure?.schedule).toEqual(failure.schedule);
    expect(byPath.failure?.violations).toEqual(failure.violations);
    const byList = await fuzz(noDedup!.handle, { schedule: failure.schedule });
    expect(byList.failure?.violations).toEqual(failure.violations);
    expect(byList.schedules).toBe(1);
  });

  it('signs and shapes every callback as the sandbox does, and forges the forged ones', async () => {
    const seen: Array<{ raw: Buffer; trade: { id: string; state: string }; signature?: string; eventId: string }> = [];
    const recording: Handle = (request, ledger) => {
      seen.push(request as (typeof seen)[number]);
      return correct!.handle(request, ledger);
    };
    const kinds = ['deliver', 'timeout', 'replay', 'wrong_signature', 'no_signature', 'other_merchant'] as const;
    const schedule = { trades: [{ amount_cents: 31250, final: 'confirmed' as const }], steps: kinds.map((kind) => ({ trade: 0, kind })) };
    const report = await fuzz(recording, { schedule });
    expect(report.passed).toBe(true);
    expect(seen).toHaveLength(7); // the timeout step sends the abandoned attempt and its retry
    const id = seen[0]!.trade.id;
    for (const request of seen) {
      expect(Object.keys(tradeSchema.parse(JSON.parse(request.raw.toString())))).toHaveLength(8);
      expect(JSON.parse(request.raw.toString())).toMatchObject({
        id,
        merchant: DEMO.id,
        state: 'confirmed',
        amount_cents: 31250,
        amount_currency: 'RUB',
        payment_data: { url: `http://127.0.0.1:4242/pay/${id}` },
      });
    }
    expect(seen.map((r) => r.eventId)).toEqual([1, 1, 1, 2, 1, 1, 1].map((n) => `cb_${id}_${n}`));
    expect(seen.map((r) => verifyCallbackSignature(DEMO.secret, r.raw, r.signature))).toEqual([true, true, true, true, false, false, false]);
    expect(seen[4]!.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(seen[5]!.signature).toBeUndefined();
    expect(verifyCallbackSignature(SECOND.secret, seen[6]!.raw, seen[6]!.signature)).toBe(true);
  });

  it('sends what the sandbox sends: one callback per trade (none for created), the same event id format, headers, body shape and signature', async () => {
    // The sandbox's own callback for a trade created and then confirmed.
    const real = await startReceiver();
    const fuzzed = await startReceiver();
    const t = await makeSandbox({ clock: 'manual' });
    try {
      const created = await t.post('/api/v1/trades/deposit/create', p2pBody({ callback_url: `${real.url}/cb` }));
      const { id } = (await created.json()) as { id: string };
      await t.sandbox.scheduler.advance(0);
      expect(real.received).toHaveLength(0); // creating a trade sends no callback
      await t.app.request(`/_sandbox/trades/${id}/transition`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"state":"confirmed"}' });
      await t.sandbox.scheduler.advance(0);
      await t.sandbox.callbacks.idle();
      expect(real.received).toHaveLength(1);

      const report = await fuzzReceiver({
        url: `${fuzzed.url}/cb`,
        merchant: { id: DEMO.id, secret: DEMO.secret },
        otherSecret: SECOND.secret,
        publicUrl: 'http://127.0.0.1:4242',
        timeoutMs: 5_000,
        schedule: { trades: [{ amount_cents: 31250, final: 'confirmed' }], steps: [{ trade: 0, kind: 'deliver' }] },
      });
      expect(report.passed).toBe(true);
      expect(fuzzed.received).toHaveLength(1);

      const [sandboxSent, fuzzerSent] = [real.received[0]!, fuzzed.received[0]!];
      const names = (headers: Record<string, unknown>) =>
        Object.keys(headers)
          .filter((name) => name !== 'host' && name !== 'connection')
          .sort();
      expect(names(fuzzerSent.headers)).toEqual(names(sandboxSent.headers));
      for (const name of ['content-type', 'user-agent', 'x-sandbox-attempt']) expect(fuzzerSent.headers[name]).toBe(sandboxSent.headers[name]);
      for (const sent of [sandboxSent, fuzzerSent]) {
        const body = JSON.parse(sent.body) as { id: string; payment_data: Record<string, string> };
        expect(body.id).toMatch(UUID_PATTERN);
        expect(sent.headers['x-sandbox-event-id']).toBe(`cb_${body.id}_1`);
        expect(verifyCallbackSignature(DEMO.secret, Buffer.from(sent.body), sent.headers['x-signature'] as string)).toBe(true);
      }
      const a = JSON.parse(sandboxSent.body) as { payment_data: object };
      const b = JSON.parse(fuzzerSent.body) as { payment_data: object };
      expect(Object.keys(b)).toEqual(Object.keys(a));
      expect(Object.keys(b.payment_data)).toEqual(Object.keys(a.payment_data));
    } finally {
      await t.close();
      await real.close();
      await fuzzed.close();
    }
  });

  it('a probe that trickles its answer a byte at a time is cut off at --timeout in total, not only when idle', async () => {
    // Headers at once, then one byte every 20 ms, forever: never idle for long, never done.
    const timers = new Set<NodeJS.Timeout>();
    const slow = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 20);
      timers.add(timer);
      res.on('close', () => clearInterval(timer));
    });
    servers.push(slow);
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const probe = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/probe`;
    try {
      const read = readProbe(probe, 'order-1', 300);
      await expect(read).rejects.toBeInstanceOf(ProbeError);
      await expect(read).rejects.toThrow(/could not be read \(the whole answer did not arrive within 300 ms; --timeout bounds each probe read\)/);
      // And the fuzzer stops with that error instead of hanging.
      const { url } = await start(correct!.handle);
      const run = fuzzReceiver({ url, probe, merchant: { id: DEMO.id, secret: DEMO.secret }, otherSecret: SECOND.secret, publicUrl: 'http://127.0.0.1:4242', timeoutMs: 300, seed: 1, runs: 5 });
      await expect(run).rejects.toThrow(/did not arrive within 300 ms/);
    } finally {
      for (const timer of timers) clearInterval(timer);
      slow.closeAllConnections();
    }
  });
});
