import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO, ecomBody, errorOf, makeSandbox, p2pBody, SECOND, TRADE_KEYS, UUID_PATTERN, type TestSandbox } from '../../test/support.js';
import { isLuhnValid } from '../trades/requisites.js';

const CREATE = '/api/v1/trades/deposit/create';
const BUILD = '/api/v1/trades/deposit/build';
const tradePath = (merchant: string, id: string) => `/api/v1/trades/${merchant}/${id}`;

type Json = Record<string, unknown>;
const payment = (trade: Json) => trade['payment_data'] as Record<string, string>;

let t: TestSandbox;
beforeEach(async () => {
  t = await makeSandbox();
});
afterEach(() => t.close());

async function created(body: Json, path = CREATE): Promise<Json> {
  const res = await t.post(path, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Json;
}

describe('endpoint table of the interface document', () => {
  it('POST /api/v1/trades/deposit/create answers 201 application/json with a created Trade', async () => {
    const body = p2pBody();
    const res = await t.post(CREATE, body);
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const trade = (await res.json()) as Json;
    expect(Object.keys(trade)).toEqual([...TRADE_KEYS]);
    expect(trade).toMatchObject({ order: body['order'], merchant: DEMO.id, state: 'created', amount_cents: 31250, amount_currency: 'RUB', rate: DEMO.rate });
    expect(trade['id']).toMatch(UUID_PATTERN);
  });

  it('POST /api/v1/trades/deposit/build answers 201 application/json with an ecom Trade', async () => {
    const body = ecomBody({ amount_cents: 100 });
    const res = await t.post(BUILD, body);
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const trade = (await res.json()) as Json;
    expect(Object.keys(trade)).toEqual([...TRADE_KEYS]);
    expect(trade).toMatchObject({ order: body['order'], merchant: DEMO.id, state: 'ecom', amount_cents: 100, amount_currency: 'RUB', rate: DEMO.rate });
  });

  it('GET /api/v1/trades/:merchant/:uuid answers 200 application/json with the same Trade', async () => {
    const trade = await created(p2pBody());
    const res = await t.get(tradePath(DEMO.id, trade['id'] as string));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(trade);
  });

  it('the create endpoints take POST only and get takes GET only', async () => {
    const getCreate = await t.get('/api/v1/trades/deposit/create');
    expect(getCreate.status).toBe(404);
    expect((await errorOf(getCreate)).message).toContain('takes POST');
    const putCreate = await t.app.request(CREATE, { method: 'PUT', headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token }, body: JSON.stringify(p2pBody()) });
    expect(putCreate.status).toBe(405);
    expect(putCreate.headers.get('Allow')).toBe('POST');
    const postGet = await t.post(tradePath(DEMO.id, '3f2a4b1c-5d6e-4f70-8a9b-0c1d2e3f4a5b'), {});
    expect(postGet.status).toBe(405);
    expect(postGet.headers.get('Allow')).toBe('GET, HEAD');
    expect(await errorOf(postGet)).toMatchObject({ status: 405, code: 'method_not_allowed' });
  });

  it('an unknown path is a 404 in the error envelope that lists the routes', async () => {
    const res = await t.get('/api/v2/trades');
    expect(res.status).toBe(404);
    const error = await errorOf(res);
    expect(error).toMatchObject({ status: 404, code: 'not_found', details: [] });
    expect(error.message).toContain('/api/v1/trades/deposit/create');
  });
});

describe('the Trade object has exactly its eight keys in every response', () => {
  it.each([
    ['create any_bank', CREATE, () => p2pBody({ type: 'any_bank' })],
    ['create nspk', CREATE, () => p2pBody({ type: 'nspk' })],
    ['build ecom', BUILD, () => ecomBody()],
  ])('%s, and its get', async (_label, path, body) => {
    const trade = await created(body(), path);
    expect(Object.keys(trade)).toEqual([...TRADE_KEYS]);
    const again = (await (await t.get(tradePath(DEMO.id, trade['id'] as string))).json()) as Json;
    expect(Object.keys(again)).toEqual([...TRADE_KEYS]);
  });

  it('does not echo sandbox-only or unknown fields (customer, urls, extra keys)', async () => {
    const trade = await created(p2pBody({ customer: 'payer-zq', callback_url: 'https://shop.example/cb', return_url: 'https://shop.example/back', extra: 'ignored', nested: { a: 1 } }));
    expect(Object.keys(trade)).toEqual([...TRADE_KEYS]);
    expect(JSON.stringify(trade)).not.toMatch(/payer-zq|shop\.example|ignored/);
  });
});

describe('payment_data per endpoint', () => {
  it('any_bank create: name, number, bank_name, url; the number is a 16-digit Luhn-valid card', async () => {
    for (let i = 0; i < 20; i++) {
      const trade = await created(p2pBody({ type: 'any_bank' }));
      const data = payment(trade);
      expect(Object.keys(data)).toEqual(['name', 'number', 'bank_name', 'url']);
      expect(data['number']).toMatch(/^\d{16}$/);
      expect(isLuhnValid(data['number'] ?? '')).toBe(true);
      expect(data['name']).not.toBe('');
      expect(data['bank_name']).not.toBe('');
    }
  });

  it('nspk create: name, number, bank_name, url; the number is a Russian mobile phone', async () => {
    for (let i = 0; i < 20; i++) {
      const data = payment(await created(p2pBody({ type: 'nspk' })));
      expect(Object.keys(data)).toEqual(['name', 'number', 'bank_name', 'url']);
      expect(data['number']).toMatch(/^\+79\d{9}$/);
    }
  });

  it('ecom build: url only', async () => {
    const trade = await created(ecomBody(), BUILD);
    expect(payment(trade)).toEqual({ url: `http://127.0.0.1:4242/pay/${trade['id'] as string}` });
  });

  it('every get carries name, number, bank_name, url, the ecom get included', async () => {
    for (const [path, body] of [
      [CREATE, p2pBody({ type: 'any_bank' })],
      [CREATE, p2pBody({ type: 'nspk' })],
      [BUILD, ecomBody()],
    ] as const) {
      const trade = await created(body, path);
      const res = await t.get(tradePath(DEMO.id, trade['id'] as string));
      const data = payment((await res.json()) as Json);
      expect(Object.keys(data)).toEqual(['name', 'number', 'bank_name', 'url']);
      if (path === CREATE) expect(data).toEqual(payment(trade));
      else expect(isLuhnValid(data['number'] ?? '')).toBe(true);
    }
  });

  it('url is <public-url>/pay/<id>, the listening address by default', async () => {
    const trade = await created(p2pBody());
    expect(payment(trade)['url']).toBe(`http://127.0.0.1:4242/pay/${trade['id'] as string}`);
  });

  it('url follows the publicUrl option (a trailing slash is not doubled)', async () => {
    const other = await makeSandbox({ publicUrl: 'https://sandbox.example.test/base/' });
    try {
      const res = await other.post(BUILD, ecomBody());
      const trade = (await res.json()) as Json;
      expect(payment(trade)['url']).toBe(`https://sandbox.example.test/base/pay/${trade['id'] as string}`);
    } finally {
      await other.close();
    }
  });
});

describe('rate and echoed fields', () => {
  it('rate comes from the merchant fixture', async () => {
    expect((await created(p2pBody()))['rate']).toBe(DEMO.rate);
    const res = await t.post(CREATE, p2pBody({ merchant: SECOND.id }), { 'X-Auth': SECOND.token });
    expect(((await res.json()) as Json)['rate']).toBe(SECOND.rate);
  });

  it('order, merchant and amount are echoed; ids are fresh UUIDs', async () => {
    const a = await created(p2pBody({ order: 'echo-1', amount_cents: 1 }));
    const b = await created(p2pBody({ order: 'echo-2', amount_cents: 10_000_000_000 }));
    expect(a).toMatchObject({ order: 'echo-1', amount_cents: 1, merchant: DEMO.id });
    expect(b).toMatchObject({ order: 'echo-2', amount_cents: 10_000_000_000 });
    expect(a['id']).not.toBe(b['id']);
  });
});

describe('get trade', () => {
  it('finds the trade whatever the case of the UUIDs in the path', async () => {
    const trade = await created(p2pBody());
    const res = await t.get(tradePath(DEMO.id.toUpperCase(), (trade['id'] as string).toUpperCase()));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(trade);
  });

  it('a trade id that does not exist is a 404 that says what to send', async () => {
    const res = await t.get(tradePath(DEMO.id, '3f2a4b1c-5d6e-4f70-8a9b-0c1d2e3f4a5b'));
    expect(res.status).toBe(404);
    const error = await errorOf(res);
    expect(error.code).toBe('not_found');
    expect(error.message).toContain('Use the "id" from the create response');
  });

  it('a trade id that is not a UUID (e.g. the order) is a 404 that explains the id', async () => {
    const trade = await created(p2pBody({ order: 'my-order-7' }));
    const res = await t.get(tradePath(DEMO.id, 'my-order-7'));
    expect(res.status).toBe(404);
    expect((await errorOf(res)).message).toContain('UUID "id" returned when the trade was created');
    expect(trade['order']).toBe('my-order-7');
  });

  it("another merchant's trade is a 404 identical to a trade that does not exist (no leak)", async () => {
    const trade = await created(p2pBody());
    const id = trade['id'] as string;
    const foreign = await t.get(tradePath(SECOND.id, id), { 'X-Token': SECOND.token });
    const missing = await t.get(tradePath(SECOND.id, '3f2a4b1c-5d6e-4f70-8a9b-0c1d2e3f4a5b'), { 'X-Token': SECOND.token });
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    const a = await errorOf(foreign);
    const b = await errorOf(missing);
    expect(a.message.replace(id, '<id>')).toBe(b.message.replace('3f2a4b1c-5d6e-4f70-8a9b-0c1d2e3f4a5b', '<id>'));
    expect({ ...a, message: '' }).toEqual({ ...b, message: '' });
    expect(JSON.stringify(a)).not.toContain(DEMO.id);
  });
});

describe('duplicate order', () => {
  it('the same order twice for one merchant is a 422 duplicate_order naming the existing trade', async () => {
    const first = await created(p2pBody({ order: 'twice-1' }));
    const res = await t.post(CREATE, p2pBody({ order: 'twice-1', type: 'nspk' }));
    expect(res.status).toBe(422);
    const error = await errorOf(res);
    expect(error.code).toBe('duplicate_order');
    expect(error.details).toEqual([{ field: 'order', message: expect.stringContaining('already used') }]);
    expect(error.message).toContain(first['id'] as string);
    expect(error.message).toContain('send a new order');
    expect(error.message).toContain(`GET /api/v1/trades/${DEMO.id}/${first['id'] as string}`);
  });

  it('an order used on create is a duplicate on build too', async () => {
    await created(p2pBody({ order: 'twice-2' }));
    const res = await t.post(BUILD, ecomBody({ order: 'twice-2' }));
    expect(res.status).toBe(422);
    expect((await errorOf(res)).code).toBe('duplicate_order');
  });

  it('the same order for another merchant is fine', async () => {
    await created(p2pBody({ order: 'shared-order' }));
    const res = await t.post(CREATE, p2pBody({ order: 'shared-order', merchant: SECOND.id }), { 'X-Auth': SECOND.token });
    expect(res.status).toBe(201);
  });

  it('a refused duplicate leaves the first trade as it was', async () => {
    const first = await created(p2pBody({ order: 'twice-3', amount_cents: 500 }));
    await t.post(CREATE, p2pBody({ order: 'twice-3', amount_cents: 900 }));
    const res = await t.get(tradePath(DEMO.id, first['id'] as string));
    expect(await res.json()).toEqual(first);
    expect(t.sandbox.store.trades.size).toBe(1);
  });
});
