import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toTrade, type TradeRecord } from './trade.js';
import { TRADE_JSON_CACHE_SIZE, TradeJsonCache } from './trade-json.js';

const record: TradeRecord = {
  id: '3f2a4b1c-5d6e-4f70-8a9b-0c1d2e3f4a5b',
  order: 'order-1',
  merchant: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51',
  state: 'created',
  amount_cents: 31250,
  amount_currency: 'RUB',
  rate: 92.5,
  type: 'any_bank',
  requisites: { name: 'Ivan Petrov', number: '4242424242424242', bank_name: 'Sberbank' },
  created_at: '2024-01-01T00:00:00.000Z',
  updated_at: '2024-01-01T00:00:00.000Z',
  history: [{ from: null, to: 'created', at: '2024-01-01T00:00:00.000Z', cause: 'create' }],
};

describe('TradeJsonCache', () => {
  let cache = new TradeJsonCache();
  const tradeJson = (trade: TradeRecord, url: string) => cache.get(trade, url);
  beforeEach(() => {
    cache = new TradeJsonCache();
  });

  it('is the get view of the trade as JSON text', () => {
    expect(tradeJson(record, 'http://127.0.0.1:4242')).toBe(JSON.stringify(toTrade(record, 'get', 'http://127.0.0.1:4242')));
  });

  it('follows a new record of the same trade (a state change stores a new record)', () => {
    tradeJson(record, 'http://127.0.0.1:4242');
    const confirmed: TradeRecord = { ...record, state: 'confirmed' };
    expect(JSON.parse(tradeJson(confirmed, 'http://127.0.0.1:4242')).state).toBe('confirmed');
    expect(JSON.parse(tradeJson(record, 'http://127.0.0.1:4242')).state).toBe('created');
  });

  it('follows the public URL (set once the server listens)', () => {
    tradeJson(record, 'http://127.0.0.1:4242');
    expect(JSON.parse(tradeJson(record, 'https://sandbox.example')).payment_data.url).toBe(`https://sandbox.example/pay/${record.id}`);
  });

  it('keeps the text of a trade read twice (a polled one) while it is among the last polled, and no more than the bound', () => {
    const url = 'http://127.0.0.1:4242';
    const first: TradeRecord = { ...record, id: '00000000-0000-4000-8000-000000000001' };
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      tradeJson(first, url);
      tradeJson(first, url);
      tradeJson(first, url);
      tradeJson(first, url);
      expect(stringify).toHaveBeenCalledTimes(2); // the first read notes it, the second keeps its text
      for (let i = 0; i < TRADE_JSON_CACHE_SIZE; i++) {
        const other = { ...record, id: `other-${i}` };
        tradeJson(other, url);
        tradeJson(other, url);
      }
      stringify.mockClear();
      tradeJson(first, url); // pushed out by the newer polled ones: made again
      expect(stringify).toHaveBeenCalledTimes(1);
    } finally {
      stringify.mockRestore();
    }
  });

  it('keeps no text for trades read once each, so a pass over many trades leaves nothing behind', () => {
    const url = 'http://127.0.0.1:4242';
    const once = Array.from({ length: 10 }, (_, i) => ({ ...record, id: `once-${i}` }));
    for (const trade of once) tradeJson(trade, url);
    for (let i = 0; i < TRADE_JSON_CACHE_SIZE; i++) tradeJson({ ...record, id: `pass-${i}` }, url);
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      // Their first reads were pushed out of the notes by the pass: each is a first read again.
      for (const trade of once) tradeJson(trade, url);
      tradeJson(once[0] as TradeRecord, url);
      expect(stringify).toHaveBeenCalledTimes(11);
      stringify.mockClear();
      tradeJson(once[0] as TradeRecord, url);
      expect(stringify).not.toHaveBeenCalled();
    } finally {
      stringify.mockRestore();
    }
  });

  it("is one sandbox's: another cache's polling neither uses nor pushes out its entries", () => {
    const url = 'http://127.0.0.1:4242';
    const other = new TradeJsonCache();
    const mine: TradeRecord = { ...record, id: '00000000-0000-4000-8000-000000000002' };
    tradeJson(mine, url);
    tradeJson(mine, url); // polled here: kept
    // Another sandbox drew the same id (the same --seed) and polls many trades.
    const theirs: TradeRecord = { ...mine, order: 'theirs' };
    expect(JSON.parse(other.get(theirs, url)).order).toBe('theirs');
    for (let i = 0; i < TRADE_JSON_CACHE_SIZE; i++) {
      const trade = { ...record, id: `theirs-${i}` };
      other.get(trade, url);
      other.get(trade, url);
    }
    const stringify = vi.spyOn(JSON, 'stringify');
    let text: string;
    try {
      text = tradeJson(mine, url);
      expect(stringify).not.toHaveBeenCalled(); // this cache still held its text
    } finally {
      stringify.mockRestore();
    }
    expect(JSON.parse(text).order).toBe('order-1');
  });
});
