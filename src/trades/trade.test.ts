import { describe, expect, it } from 'vitest';
import { TRADE_KEYS } from '../../test/support.js';
import { guardFor } from '../store/schema-guard.js';
import { paymentUrl, toTrade, tradeRecordSchema, tradeSchema, type TradeRecord } from './trade.js';

const record: TradeRecord = {
  id: '3f2a4b1c-5d6e-4f70-8a9b-0c1d2e3f4a5b',
  order: 'order-1',
  merchant: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51',
  state: 'ecom',
  amount_cents: 312,
  amount_currency: 'RUB',
  rate: 92.5,
  type: 'ecom',
  customer: 'c-1',
  callback_url: 'https://shop.example/cb',
  requisites: { name: 'Ivan Petrov', number: '4242424242424242', bank_name: 'Sberbank' },
  created_at: '2024-01-01T00:00:00.000Z',
  updated_at: '2024-01-01T00:00:00.000Z',
  history: [{ from: null, to: 'ecom', at: '2024-01-01T00:00:00.000Z', cause: 'create' }],
};

describe('toTrade', () => {
  it('renders the eight keys in the document order, valid against the strict Trade schema', () => {
    for (const view of ['create', 'build', 'get'] as const) {
      const trade = toTrade(record, view, 'http://127.0.0.1:4242');
      expect(Object.keys(trade)).toEqual([...TRADE_KEYS]);
      expect(tradeSchema.safeParse(trade).success).toBe(true);
    }
  });

  it('build carries only url in payment_data; create and get carry the requisites too', () => {
    const url = `http://h/pay/${record.id}`;
    expect(toTrade(record, 'build', 'http://h').payment_data).toEqual({ url });
    expect(toTrade(record, 'get', 'http://h').payment_data).toEqual({ ...record.requisites, url });
    expect(toTrade(record, 'create', 'http://h').payment_data).toEqual({ ...record.requisites, url });
  });
});

describe('paymentUrl', () => {
  it('is <public-url>/pay/<id>, without a doubled slash', () => {
    expect(paymentUrl('http://127.0.0.1:4242', 'x')).toBe('http://127.0.0.1:4242/pay/x');
    expect(paymentUrl('https://a.example/base//', 'x')).toBe('https://a.example/base/pay/x');
  });
});

describe('a stored trade in an intermediate state', () => {
  const processing: TradeRecord = {
    ...record,
    state: 'processing',
    history: [...record.history, { from: 'ecom', to: 'processing', at: '2024-01-01T00:00:05.000Z', cause: 'page' }],
    intermediate: ['processing'],
  };
  const guard = guardFor(tradeRecordSchema);

  it('loads as it is when the record lists the state among its intermediate ones', () => {
    expect(guard(processing)).toBe(true);
    expect(tradeRecordSchema.parse(processing)).toEqual(processing);
    expect(toTrade(processing, 'get', 'http://127.0.0.1:4242').state).toBe('processing');
  });

  it('is refused when a state is neither the sandbox’s nor one the record lists, naming the states it may hold', () => {
    const { intermediate: _listed, ...unlisted } = processing;
    expect(guard(unlisted)).toBe(false);
    const result = tradeRecordSchema.safeParse(unlisted);
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['state', 'Invalid option: expected one of "created"|"ecom"|"confirmed"|"canceled"|"expired"'],
      ['history.1.to', 'Invalid option: expected one of "created"|"ecom"|"confirmed"|"canceled"|"expired"'],
    ]);
    expect(tradeRecordSchema.safeParse({ ...processing, state: 'lost' }).error?.issues[0]?.message).toBe(
      'Invalid option: expected one of "created"|"ecom"|"processing"|"confirmed"|"canceled"|"expired"',
    );
    expect(guard({ ...processing, state: 'lost' })).toBe(false);
  });
});
