import type { TradeRecord } from '../src/trades/trade.js';

/** A stored trade numbered `n` (id, order, amount and times follow from it), for store tests. */
export function sampleTrade(n: number, overrides: Partial<TradeRecord> = {}): TradeRecord {
  const at = new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    order: `order-${n}`,
    merchant: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51',
    state: 'created',
    amount_cents: 1000 + n,
    amount_currency: 'RUB',
    rate: 92.5,
    type: 'any_bank',
    requisites: { name: 'Ivan Petrov', number: '2202201234567890', bank_name: 'Sberbank' },
    created_at: at,
    updated_at: at,
    history: [{ from: null, to: 'created', at, cause: 'create' }],
    ...overrides,
  };
}
