import { describe, expect, it } from 'vitest';
import type { TradeRecord } from '../trades/trade.js';
import { type AcceptedRequest, PackedRequests } from './packed-requests.js';
import { SessionRecorder } from './session-recorder.js';

const trade = { id: 'c0ffee00-0000-4000-8000-000000000001' } as TradeRecord;

const request = (n: number, body: string | undefined = `{"order":"заказ-${n}","amount_cents":31250}`): AcceptedRequest => ({
  wall: 1_790_000_000_000.25 + n,
  clock: 1_790_000_000_000 + n * 1000,
  duration: 0.125 * n,
  method: body === undefined ? 'GET' : 'POST',
  status: body === undefined ? 200 : 201,
  view: body === undefined ? 'get' : n % 2 ? 'build' : 'create',
  url: body === undefined ? `/api/v1/trades/m/${n}` : '/api/v1/trades/deposit/create',
  headers: `Host\n127.0.0.1\nX-Auth\ntoken-${n}\nX-Note\nпривет, 😀`,
  body,
  trade,
});

describe('packed requests', () => {
  it('reads back every field as packed: UTF-8 text, a read without a body, fractions of milliseconds', () => {
    const packed = new PackedRequests();
    const written = [request(1), request(2, undefined), request(3, '')].map((r, i) => ({ r, at: packed.pack(r, i + 1) }));
    for (const [i, { r, at }] of written.entries()) {
      const { trade: _trade, ...fields } = r;
      expect(packed.unpack(at!.offset)).toEqual({ ...fields, seq: i + 1 });
    }
  });

  it('grows a chunk as it fills: every record written before reads back the same, at the offset it was given', () => {
    const packed = new PackedRequests();
    const written = Array.from({ length: 300 }, (_, n) => {
      const r = request(n, `{"order":"${'я'.repeat(n * 3)}"}`);
      return { r, at: packed.pack(r, n + 1)! };
    });
    // Several hundred kilobytes, all in the first chunk.
    expect(written.at(-1)!.at.offset).toBeGreaterThan(1 << 18);
    expect(written.at(-1)!.at.offset).toBeLessThan(1 << 20);
    for (const [i, { r, at }] of written.entries()) {
      const { trade: _trade, ...fields } = r;
      expect(packed.unpack(at.offset)).toEqual({ ...fields, seq: i + 1 });
    }
  });

  it('fills chunks one after another and lets go of those before the oldest kept', () => {
    const packed = new PackedRequests();
    const big = 'x'.repeat(100_000);
    const offsets = Array.from({ length: 30 }, (_, n) => packed.pack(request(n, big), n + 1)!.offset);
    // 100 KB bodies, room for each made as if every character took three bytes: four chunks at least.
    expect(Math.floor(offsets.at(-1)! / (1 << 20))).toBeGreaterThanOrEqual(3);
    packed.release(offsets[20]);
    expect(packed.unpack(offsets[20]!).body).toBe(big);
    expect(() => packed.unpack(offsets[0]!)).toThrow(/let go/);
  });

  it('does not pack a request too large for a chunk', () => {
    expect(new PackedRequests().pack(request(1, 'x'.repeat(400_000)), 1)).toBeUndefined();
  });
});

describe('a recorder of packed requests', () => {
  it('keeps them in order with other entries, within its limit, and writes their answers again from the trade', () => {
    const recorder = new SessionRecorder({ enabled: true, limit: 16 * 1024, info: { workspace: 'default', started: '', startClock: '', clockMode: 'manual', seed: 1 } });
    for (let n = 0; n < 3_000; n++) {
      if (n % 500 === 7 || n === 2_990) recorder.record({ type: 'clock', seq: 0, wall: n, from: 'a', to: 'b', cause: `move ${n}` });
      else recorder.recordAccepted(request(n), 'http://127.0.0.1:4242');
    }
    const entries = recorder.entries();
    expect(recorder.bytes).toBeLessThanOrEqual(16 * 1024);
    expect(entries.length + recorder.dropped).toBe(3_000);
    expect(entries.map((entry) => entry.seq)).toEqual(entries.map((_, i) => recorder.dropped + 1 + i));
    const last = entries.at(-1);
    if (last?.type !== 'request') throw new Error('the last entry is a request');
    expect(last).toMatchObject({ method: 'POST', url: '/api/v1/trades/deposit/create', requestHeaders: request(2999).headers, requestBody: request(2999).body, status: 201 });
    expect(typeof last.responseBody === 'function' && JSON.parse(last.responseBody()).id).toBe(trade.id);
    expect(entries.some((entry) => entry.type === 'clock')).toBe(true);
  });
});
