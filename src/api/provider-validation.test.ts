import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO, ecomBody, errorOf, makeSandbox, p2pBody, type TestSandbox } from '../../test/support.js';
import { LIMITS } from '../trades/requests.js';

const CREATE = '/api/v1/trades/deposit/create';
const BUILD = '/api/v1/trades/deposit/build';

let t: TestSandbox;
beforeEach(async () => {
  t = await makeSandbox();
});
afterEach(() => t.close());

/** Posts `body` and expects a 422 validation_failed whose only detail names `field`; returns the message. */
async function refused(path: string, body: unknown, field: string, code = 'validation_failed'): Promise<string> {
  const res = await t.post(path, body);
  expect(res.status, await res.clone().text()).toBe(422);
  const error = await errorOf(res);
  expect(error.status).toBe(422);
  expect(error.code).toBe(code);
  expect(error.details.map((d) => d.field)).toEqual([field]);
  expect(error.details[0]?.message).toBe(error.message);
  expect(t.sandbox.store.trades.size).toBe(0);
  return error.message;
}

const both = [
  ['create', CREATE, p2pBody],
  ['build', BUILD, ecomBody],
] as const;

describe.each(both)('%s: merchant', (_name, path, body) => {
  it('is required', async () => {
    const { merchant: _m, ...rest } = body();
    expect(await refused(path, rest, 'merchant')).toMatch(/^merchant is required: your merchant UUID, e\.g\. "6f1c2a9e-/);
  });

  it.each([['not-a-uuid'], [12345], ['6f1c2a9e3b7d4c529a1e2d4b8f0c7e51']])('must be a UUID string (%j)', async (merchant) => {
    const message = await refused(path, body({ merchant }), 'merchant');
    expect(message).toContain('merchant must be your merchant UUID as a string');
    expect(message).toContain(`got ${JSON.stringify(merchant)}`);
  });
});

describe.each(both)('%s: order', (_name, path, body) => {
  it('is required', async () => {
    const { order: _o, ...rest } = body();
    expect(await refused(path, rest, 'order')).toContain('order is required: the trade identifier in your system');
  });

  it.each([[''], ['   ']])('must not be empty or blank (%j)', async (order) => {
    expect(await refused(path, body({ order }), 'order')).toContain('order must not be empty');
  });

  it('must be a string; a number is refused with a hint to quote it', async () => {
    expect(await refused(path, body({ order: 1001 }), 'order')).toContain('Send "1001" in quotes');
  });

  it(`is at most ${LIMITS.maxOrderLength} characters`, async () => {
    expect((await t.post(path, body({ order: 'x'.repeat(LIMITS.maxOrderLength) }))).status).toBe(201);
    await t.close();
    t = await makeSandbox();
    expect(await refused(path, body({ order: 'x'.repeat(LIMITS.maxOrderLength + 1) }), 'order')).toContain(`at most ${LIMITS.maxOrderLength}`);
  });
});

describe.each(both)('%s: amount_cents', (_name, path, body) => {
  it('is required, and the message says kopecks', async () => {
    const { amount_cents: _a, ...rest } = body();
    expect(await refused(path, rest, 'amount_cents')).toContain('integer number of kopecks');
  });

  it('a float says amounts are integer kopecks and gives both readings: rubles, or kopecks to round', async () => {
    const message = await refused(path, body({ amount_cents: 312.5 }), 'amount_cents');
    expect(message).toBe(
      'amount_cents must be an integer number of kopecks, not rubles; got 312.5. If you meant 312.50 rubles (312 rubles 50 kopecks), send 31250. If 312.5 is already in kopecks, a kopeck cannot be split: send 312 or 313.',
    );
  });

  it('a float that is no whole number of kopecks as rubles only gets the rounding', async () => {
    expect(await refused(path, body({ amount_cents: 3.125 }), 'amount_cents')).toContain('As rubles it is not a whole number of kopecks either');
  });

  it('a ruble amount with kopecks (3.12) suggests 312', async () => {
    expect(await refused(path, body({ amount_cents: 3.12 }), 'amount_cents')).toContain('If you meant 3.12 rubles (3 rubles 12 kopecks), send 312.');
  });

  it.each([['312'], ['3.12'], ['312 RUB']])('a string (%j) is refused with a message that says kopecks', async (amount) => {
    const message = await refused(path, body({ amount_cents: amount }), 'amount_cents');
    expect(message).toContain('must be a JSON integer of kopecks, not a string: send 312, not "312"');
  });

  it.each([[0], [-100]])('must be positive (%j)', async (amount) => {
    expect(await refused(path, body({ amount_cents: amount }), 'amount_cents')).toContain('positive number of kopecks');
  });

  it(`is at most the documented maximum ${LIMITS.maxAmountCents}`, async () => {
    expect((await t.post(path, body({ amount_cents: LIMITS.maxAmountCents }))).status).toBe(201);
    await t.close();
    t = await makeSandbox();
    expect(await refused(path, body({ amount_cents: LIMITS.maxAmountCents + 1 }), 'amount_cents')).toContain(`at most ${LIMITS.maxAmountCents} kopecks`);
  });

  it('a number past the safe integers gives one detail, not two', async () => {
    expect(await refused(path, body({ amount_cents: 1e20 }), 'amount_cents')).toContain(`no larger than ${LIMITS.maxAmountCents}`);
  });

  it.each([[null], [true], [[312]]])('other JSON types (%j) are refused', async (amount) => {
    expect(await refused(path, body({ amount_cents: amount }), 'amount_cents')).toContain('kopecks');
  });
});

describe.each(both)('%s: amount_currency', (_name, path, body) => {
  it('is required', async () => {
    const { amount_currency: _c, ...rest } = body();
    expect(await refused(path, rest, 'amount_currency')).toContain('amount_currency is required: "RUB"');
  });

  it('must be exactly RUB: lowercase says capitals', async () => {
    expect(await refused(path, body({ amount_currency: 'rub' }), 'amount_currency')).toContain('exactly "RUB" in capitals');
  });

  it.each([['USD'], ['RUR'], [643]])('another currency (%j) is refused', async (currency) => {
    expect(await refused(path, body({ amount_currency: currency }), 'amount_currency')).toContain('the only currency the service accepts');
  });
});

describe('type', () => {
  it('create takes any_bank and nspk', async () => {
    expect((await t.post(CREATE, p2pBody({ type: 'any_bank' }))).status).toBe(201);
    expect((await t.post(CREATE, p2pBody({ type: 'nspk' }))).status).toBe(201);
  });

  it('ecom on create says use /deposit/build', async () => {
    expect(await refused(CREATE, p2pBody({ type: 'ecom' }), 'type')).toContain('create it with POST /api/v1/trades/deposit/build');
  });

  it.each([['any_bank'], ['nspk']])('%s on build says use /deposit/create', async (type) => {
    expect(await refused(BUILD, ecomBody({ type }), 'type')).toContain('create it with POST /api/v1/trades/deposit/create');
  });

  it('an unknown type is refused with the allowed values', async () => {
    expect(await refused(CREATE, p2pBody({ type: 'card' }), 'type')).toContain('"any_bank" (card transfer) or "nspk"');
    expect(await refused(BUILD, ecomBody({ type: 'card' }), 'type')).toContain('must be "ecom" on this endpoint');
  });

  it('is required', async () => {
    const { type: _t, ...rest } = p2pBody();
    expect(await refused(CREATE, rest, 'type')).toContain('type is required');
  });
});

describe.each(both)('%s: callback_url and return_url', (_name, path, body) => {
  it.each([['callback_url'], ['return_url']])('%s accepts absolute http and https URLs', async (field) => {
    expect((await t.post(path, body({ [field]: 'http://127.0.0.1:9000/hook' }))).status).toBe(201);
    expect((await t.post(path, body({ [field]: 'https://shop.example/x?y=1' }))).status).toBe(201);
  });

  it.each([
    ['callback_url', 'file:///etc/passwd'],
    ['callback_url', 'javascript:alert(1)'],
    ['callback_url', '/callbacks/deposit'],
    ['callback_url', 'shop.example/cb'],
    ['callback_url', 'ftp://shop.example/cb'],
    ['return_url', 'javascript:alert(1)'],
    ['return_url', 'file:///tmp/x'],
    ['return_url', 'thanks.html'],
    ['return_url', 'http://'],
  ])('%s %j is refused', async (field, url) => {
    const message = await refused(path, body({ [field]: url }), field);
    expect(message).toContain(`${field} must be an absolute http:// or https:// URL`);
    expect(message).toContain('e.g. "https://shop.example/');
  });

  it('an empty string says to leave the field out (null means absent: see provider-nulls-floats.test.ts)', async () => {
    expect(await refused(path, body({ callback_url: '' }), 'callback_url')).toContain('Leave the field out (or send null) when there is none');
  });

  it(`is at most ${LIMITS.maxUrlLength} characters, one detail`, async () => {
    const url = `https://shop.example/${'a'.repeat(LIMITS.maxUrlLength)}`;
    expect(await refused(path, body({ callback_url: url }), 'callback_url')).toContain(`at most ${LIMITS.maxUrlLength}`);
  });
});

describe.each(both)('%s: customer and cusotmer', (_name, path, body) => {
  it('either spelling is accepted, and both with the same value', async () => {
    expect((await t.post(path, body({ customer: 'payer@example.com' }))).status).toBe(201);
    expect((await t.post(path, body({ cusotmer: 'payer@example.com' }))).status).toBe(201);
    expect((await t.post(path, body({ customer: 'same', cusotmer: 'same' }))).status).toBe(201);
  });

  it('both spellings with different values is a 422 that says to send one', async () => {
    const message = await refused(path, body({ customer: 'a', cusotmer: 'b' }), 'cusotmer');
    expect(message).toContain('customer and cusotmer are two spellings of one field');
    expect(message).toContain('Send one of them');
  });

  it('must be a string', async () => {
    expect(await refused(path, body({ customer: 42 }), 'customer')).toContain('customer must be a string');
  });
});

describe('unknown fields', () => {
  it('are ignored', async () => {
    expect((await t.post(CREATE, p2pBody({ description: 'x', amount: 3.12, meta: { a: 1 } }))).status).toBe(201);
  });
});

describe('several problems at once', () => {
  it('give one detail per problem and a message that names the fields and the first problem', async () => {
    const res = await t.post(CREATE, p2pBody({ amount_currency: 'usd', type: 'card', order: '' }));
    expect(res.status).toBe(422);
    const error = await errorOf(res);
    expect(error.details.map((d) => d.field).sort()).toEqual(['amount_currency', 'order', 'type']);
    expect(error.message).toMatch(/^3 problems in fields .*order.*; see details for each\. The first: /);
  });
});

describe('the body must be JSON', () => {
  const raw = (path: string, body: string, contentType?: string) =>
    t.app.request(path, {
      method: 'POST',
      headers: { ...(contentType === undefined ? {} : { 'Content-Type': contentType }), 'X-Auth': DEMO.token },
      body,
    });

  it.each(both)('%s: malformed JSON is a 422 invalid_json saying the body must be JSON', async (_name, path) => {
    const res = await raw(path, '{"merchant": "x",', 'application/json');
    expect(res.status).toBe(422);
    const error = await errorOf(res);
    expect(error.code).toBe('invalid_json');
    expect(error.message).toContain('The request body is not valid JSON');
    expect(error.details).toEqual([{ field: 'body', message: error.message }]);
  });

  it.each(both)('%s: a non-JSON content type is a 422 saying the body must be JSON', async (_name, path, body) => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await raw(path, JSON.stringify(body()), type);
      expect(res.status).toBe(422);
      const error = await errorOf(res);
      expect(error.code).toBe('invalid_json');
      expect(error.message).toContain('The request body must be JSON sent with "Content-Type: application/json"');
      expect(error.message).toContain(`got "${type.split(';')[0]}"`);
    }
  });

  it('a missing content type says the header is missing', async () => {
    const res = await t.app.request(CREATE, { method: 'POST', headers: { 'X-Auth': DEMO.token }, body: new Uint8Array(Buffer.from(JSON.stringify(p2pBody()))) });
    expect(res.status).toBe(422);
    expect((await errorOf(res)).message).toContain('(the header is missing)');
  });

  it('an empty body, null and an array are refused with what to send', async () => {
    const empty = await raw(CREATE, '', 'application/json');
    expect((await errorOf(empty)).message).toContain('The request body is empty');
    const nul = await raw(CREATE, 'null', 'application/json');
    expect((await errorOf(nul)).message).toContain('must be a JSON object');
    const array = await raw(CREATE, '[]', 'application/json');
    expect((await errorOf(array)).message).toContain('got an array');
  });

  it('JSON content types with a charset or in another case are accepted', async () => {
    expect((await raw(CREATE, JSON.stringify(p2pBody()), 'application/json; charset=utf-8')).status).toBe(201);
    expect((await raw(CREATE, JSON.stringify(p2pBody()), 'Application/JSON')).status).toBe(201);
  });

  it('a body over the size limit is a 413 that says the limit', async () => {
    const res = await t.post(CREATE, p2pBody({ padding: 'x'.repeat(LIMITS.maxBodyBytes) }));
    expect(res.status).toBe(413);
    const error = await errorOf(res);
    expect(error.code).toBe('body_too_large');
    expect(error.message).toContain(String(LIMITS.maxBodyBytes));
  });
});

describe('order of checks', () => {
  it('auth comes before body validation: a bad amount without a header is a 401', async () => {
    const res = await t.app.request(CREATE, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(p2pBody({ amount_cents: 1.5 })) });
    expect(res.status).toBe(401);
  });

  it('a malformed merchant is a 422 (not an unknown-merchant 401), a well-formed unknown one a 401', async () => {
    expect((await t.post(CREATE, p2pBody({ merchant: 'shop-1' }))).status).toBe(422);
    expect((await t.post(CREATE, p2pBody({ merchant: '11111111-1111-4111-8111-111111111111' }))).status).toBe(401);
  });
});
