import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO, makeSandbox, p2pBody, type TestSandbox } from '../../test/support.js';

let t: TestSandbox;
beforeEach(async () => {
  t = await makeSandbox();
});
afterEach(() => t.close());

describe('POST /api/v1/trades/deposit/create', () => {
  it('answers 201 with the eight keys of the Trade object', async () => {
    const res = await t.post('/api/v1/trades/deposit/create', p2pBody());
    expect(res.status).toBe(201);
    const trade = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(trade)).toEqual(['id', 'order', 'merchant', 'state', 'amount_cents', 'amount_currency', 'rate', 'payment_data']);
    expect(trade['state']).toBe('created');
    expect(trade['merchant']).toBe(DEMO.id);
  });
});
