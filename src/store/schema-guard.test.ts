import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { guardFor } from './schema-guard.js';
import { tableSchemas } from './snapshot.js';

const trade = {
  id: '00000000-0000-4000-8000-000000000001',
  order: 'order-1',
  merchant: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51',
  state: 'confirmed',
  amount_cents: 31250,
  amount_currency: 'RUB',
  rate: 92.5,
  type: 'nspk',
  callback_url: 'http://127.0.0.1:9/cb',
  requisites: { name: 'Anna Smirnova', number: '+79001234567', bank_name: 'VTB' },
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:01:00.000Z',
  history: [
    { from: null, to: 'created', at: '2026-01-01T00:00:00.000Z', cause: 'create' },
    { from: 'created', to: 'confirmed', at: '2026-01-01T00:01:00.000Z', cause: 'admin', note: 'paid' },
  ],
};
const job = { id: 'job_1', due: 1_700_000_000_000, seq: 3, kind: 'callback', trade: trade.id, data: { event: 'cb_1', attempt: 2 } };
const callback = {
  id: 'cb_1',
  trade: trade.id,
  merchant: trade.merchant,
  url: 'http://127.0.0.1:9/cb',
  state: 'confirmed',
  body: '{}',
  status: 'pending',
  created_at: '2026-01-01T00:01:00.000Z',
  seq: 1,
  attempts: [{ attempt: 1, at: '2026-01-01T00:01:00.000Z', status: null, duration_ms: 12.5, response: '', error: 'ECONNREFUSED' }],
};
const meta = { id: 'clock', offset: 60_000, anything: ['goes'] };

const valid = { trades: trade, jobs: job, callbacks: callback, meta } as const;

describe('guardFor', () => {
  it.each(Object.keys(valid) as Array<keyof typeof valid>)('passes a valid %s row as it is', (table) => {
    expect(guardFor(tableSchemas[table])(valid[table])).toBe(true);
    expect(tableSchemas[table].parse(valid[table])).toEqual(valid[table]);
  });

  it('fails what zod refuses, and what zod would change (unknown keys it strips)', () => {
    const guard = guardFor(tableSchemas.trades);
    expect(guard({ ...trade, amount_cents: 1.5 })).toBe(false);
    expect(guard({ ...trade, state: 'lost' })).toBe(false);
    expect(guard({ ...trade, history: [{ ...trade.history[0], from: undefined }] })).toBe(false);
    expect(guard({ ...trade, extra: 1 })).toBe(false);
    expect(tableSchemas.trades.safeParse({ ...trade, extra: 1 }).success).toBe(true);
    const { order: _order, ...missing } = trade;
    expect(guard(missing)).toBe(false);
    expect(guard(null)).toBe(false);
    expect(guard([trade])).toBe(false);
  });

  it('fails schema kinds it does not know, leaving the decision to zod', () => {
    expect(guardFor(z.string().min(1))('x')).toBe(false);
    expect(guardFor(z.number().default(1))(1)).toBe(false);
    expect(guardFor(z.union([z.string(), z.number()]))('x')).toBe(false);
  });

  it('never passes a value zod would refuse or change (random mutations of valid rows)', () => {
    const tables = Object.keys(valid) as Array<keyof typeof valid>;
    const mutation = fc.record({
      table: fc.constantFrom(...tables),
      path: fc.array(fc.oneof(fc.constantFrom('id', 'state', 'history', 'attempts', 'data', 'requisites', 'status', 'from', 'note', 'x'), fc.nat(2)), { minLength: 1, maxLength: 3 }),
      value: fc.jsonValue(),
    });
    fc.assert(
      fc.property(mutation, ({ table, path, value }) => {
        const row = structuredClone(valid[table]) as Record<string, unknown>;
        let node: Record<string, unknown> = row;
        for (const key of path.slice(0, -1)) {
          const next = node[key as string];
          if (typeof next !== 'object' || next === null) break;
          node = next as Record<string, unknown>;
        }
        node[path.at(-1) as string] = value;
        // Rows come from JSON.parse: round-trip the mutated row the same way.
        const input: unknown = JSON.parse(JSON.stringify(row));
        if (!guardFor(tableSchemas[table])(input)) return;
        const parsed = tableSchemas[table].safeParse(input);
        expect(parsed.success).toBe(true);
        expect(parsed.data).toStrictEqual(input);
      }),
      { numRuns: 2000, seed: 5 },
    );
  });
});
