import { afterEach, describe, expect, it } from 'vitest';
import { accepted, DEMO, ecomBody, errorOf, makeSandbox, p2pBody, SECOND, signatureOf, type TestSandbox } from '../../test/support.js';
import type { AuthMode } from '../auth/authenticate.js';
import { createTrade } from '../trades/service.js';

const CREATE = '/api/v1/trades/deposit/create';
const BUILD = '/api/v1/trades/deposit/build';
const UNKNOWN = '11111111-1111-4111-8111-111111111111';
const tradePath = (merchant: string, id: string) => `/api/v1/trades/${merchant}/${id}`;

type Json = Record<string, unknown>;

const sandboxes: TestSandbox[] = [];
async function sandbox(auth?: AuthMode): Promise<TestSandbox> {
  const t = await makeSandbox(auth ? { auth } : {});
  sandboxes.push(t);
  return t;
}
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((t) => t.close()));
});

/** A trade of the demo merchant created with auth off, to read back. */
async function seedTrade(t: TestSandbox): Promise<string> {
  const res = await t.post(CREATE, p2pBody(), { 'X-Auth': DEMO.token });
  expect(res.status).toBe(201);
  return ((await res.json()) as Json)['id'] as string;
}

/** POST with exactly these auth headers (no default X-Auth). */
function postWith(t: TestSandbox, path: string, body: Json, headers: Record<string, string>) {
  return t.app.request(path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
}
function getWith(t: TestSandbox, path: string, headers: Record<string, string>) {
  return t.app.request(path, { headers });
}

describe('auth table: which header each endpoint reads', () => {
  it.each([
    ['create', CREATE, () => p2pBody()],
    ['build', BUILD, () => ecomBody()],
  ])('%s reads X-Auth', async (_name, path, body) => {
    const t = await sandbox();
    expect((await postWith(t, path, body(), { 'X-Auth': DEMO.token })).status).toBe(201);
    expect((await postWith(t, path, body(), { 'x-auth': DEMO.token })).status).toBe(201);
  });

  it('get reads X-Token', async () => {
    const t = await sandbox();
    const id = await seedTrade(t);
    expect((await getWith(t, tradePath(DEMO.id, id), { 'X-Token': DEMO.token })).status).toBe(200);
  });

  it.each([
    ['create', CREATE, () => p2pBody()],
    ['build', BUILD, () => ecomBody()],
  ])('X-Token on %s is a 401 whose message names X-Auth', async (_name, path, body) => {
    const t = await sandbox();
    const res = await postWith(t, path, body(), { 'X-Token': DEMO.token });
    expect(res.status).toBe(401);
    const error = await errorOf(res);
    expect(error.code).toBe('wrong_auth_header');
    expect(error.message).toContain('reads the X-Auth header, but the request sent X-Token');
    expect(error.details).toEqual([{ field: 'X-Auth', message: expect.stringContaining('X-Token was sent instead') }]);
  });

  it('X-Auth on get is a 401 whose message names X-Token', async () => {
    const t = await sandbox();
    const id = await seedTrade(t);
    const res = await getWith(t, tradePath(DEMO.id, id), { 'X-Auth': DEMO.token });
    expect(res.status).toBe(401);
    const error = await errorOf(res);
    expect(error.code).toBe('wrong_auth_header');
    expect(error.message).toContain('reads the X-Token header, but the request sent X-Auth');
  });

  it('no header at all is a 401 missing_auth_header with an example', async () => {
    const t = await sandbox();
    for (const res of [await postWith(t, CREATE, p2pBody(), {}), await postWith(t, BUILD, ecomBody(), {}), await getWith(t, tradePath(DEMO.id, UNKNOWN), {})]) {
      expect(res.status).toBe(401);
      const error = await errorOf(res);
      expect(error.code).toBe('missing_auth_header');
      expect(error.message).toMatch(/The X-(Auth|Token) header is missing\. Send the merchant's token or a signature/);
    }
  });

  it('an empty header counts as missing', async () => {
    const t = await sandbox();
    const res = await postWith(t, CREATE, p2pBody(), { 'X-Auth': '' });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).code).toBe('missing_auth_header');
  });
});

describe('error table: 401 on every endpoint', () => {
  it('an unknown merchant is a 401 on create, build and get', async () => {
    const t = await sandbox();
    for (const res of [
      await postWith(t, CREATE, p2pBody({ merchant: UNKNOWN }), { 'X-Auth': DEMO.token }),
      await postWith(t, BUILD, ecomBody({ merchant: UNKNOWN }), { 'X-Auth': DEMO.token }),
      await getWith(t, tradePath(UNKNOWN, '3f2a4b1c-5d6e-4f70-8a9b-0c1d2e3f4a5b'), { 'X-Token': DEMO.token }),
    ]) {
      expect(res.status).toBe(401);
      const error = await errorOf(res);
      expect(error.code).toBe('unknown_merchant');
      expect(error.details).toEqual([{ field: 'merchant', message: 'not a known merchant' }]);
      expect(error.message).toContain(`Merchant "${UNKNOWN}" is not known to this sandbox`);
      expect(error.message).toContain('--fixtures');
    }
  });

  it('a path merchant that is not a UUID is a 401 on get (get documents only 401 and 404)', async () => {
    const t = await sandbox();
    const res = await getWith(t, tradePath('not-a-merchant', UNKNOWN), { 'X-Token': DEMO.token });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).code).toBe('unknown_merchant');
  });

  it('the token of another merchant is a 401 that says whose token it is', async () => {
    const t = await sandbox();
    const res = await postWith(t, CREATE, p2pBody(), { 'X-Auth': SECOND.token });
    expect(res.status).toBe(401);
    const error = await errorOf(res);
    expect(error.code).toBe('invalid_token');
    expect(error.message).toContain(`holds the token of merchant ${SECOND.id}, but the request is for merchant ${DEMO.id}`);
  });
});

describe('--auth modes', () => {
  const goodToken = { create: DEMO.token, get: DEMO.token };

  async function attempts(t: TestSandbox, kind: 'token' | 'signature' | 'upper' | 'garbage') {
    const body = p2pBody();
    const build = ecomBody();
    const id = await seedOff(t);
    const get = { merchant: DEMO.id, uuid: id };
    const value = (endpoint: 'create' | 'build' | 'get', values: Json) => {
      if (kind === 'token') return endpoint === 'get' ? goodToken.get : goodToken.create;
      if (kind === 'garbage') return 'definitely-not-valid';
      const hex = signatureOf(endpoint, values);
      return kind === 'upper' ? hex.toUpperCase() : hex;
    };
    return [
      await postWith(t, CREATE, body, { 'X-Auth': value('create', body) }),
      await postWith(t, BUILD, build, { 'X-Auth': value('build', build) }),
      await getWith(t, tradePath(DEMO.id, id), { 'X-Token': value('get', get) }),
    ];
  }
  /** Seeds a trade straight through the service, whatever the mode. */
  async function seedOff(t: TestSandbox): Promise<string> {
    const trade = accepted(createTrade(t.sandbox, { merchant: DEMO.id, order: `seed-${Math.random()}`, amount_cents: 100, amount_currency: 'RUB', type: 'any_bank' }));
    await t.sandbox.store.commit();
    return trade.id;
  }
  const statuses = (responses: Response[]) => responses.map((r) => r.status);

  it.each<[AuthMode, 'token' | 'signature' | 'upper' | 'garbage', number[]]>([
    ['token', 'token', [201, 201, 200]],
    ['token', 'signature', [401, 401, 401]],
    ['token', 'garbage', [401, 401, 401]],
    ['signature', 'token', [401, 401, 401]],
    ['signature', 'signature', [201, 201, 200]],
    ['signature', 'upper', [201, 201, 200]],
    ['signature', 'garbage', [401, 401, 401]],
    ['either', 'token', [201, 201, 200]],
    ['either', 'signature', [201, 201, 200]],
    ['either', 'upper', [201, 201, 200]],
    ['either', 'garbage', [401, 401, 401]],
    ['off', 'token', [201, 201, 200]],
    ['off', 'signature', [201, 201, 200]],
    ['off', 'garbage', [201, 201, 200]],
  ])('--auth %s with a %s header: create, build, get answer %j', async (mode, kind, expected) => {
    const t = await sandbox(mode);
    expect(statuses(await attempts(t, kind))).toEqual(expected);
  });

  it('the default mode is either', async () => {
    const t = await sandbox();
    expect(t.sandbox.options.auth).toBe('either');
  });

  it('--auth off accepts no header at all, on every endpoint', async () => {
    const t = await sandbox('off');
    const id = await seedOff(t);
    expect((await postWith(t, CREATE, p2pBody(), {})).status).toBe(201);
    expect((await postWith(t, BUILD, ecomBody(), {})).status).toBe(201);
    expect((await getWith(t, tradePath(DEMO.id, id), {})).status).toBe(200);
  });

  it('--auth off still refuses an unknown merchant with a 401 (not a 500)', async () => {
    const t = await sandbox('off');
    const create = await postWith(t, CREATE, p2pBody({ merchant: UNKNOWN }), {});
    const get = await getWith(t, tradePath(UNKNOWN, '3f2a4b1c-5d6e-4f70-8a9b-0c1d2e3f4a5b'), {});
    expect([create.status, get.status]).toEqual([401, 401]);
    expect((await errorOf(create)).code).toBe('unknown_merchant');
    expect((await errorOf(get)).code).toBe('unknown_merchant');
  });

  it('--auth token: a wrong token says the sandbox wants the static token', async () => {
    const t = await sandbox('token');
    const res = await postWith(t, CREATE, p2pBody(), { 'X-Auth': 'wrong-token' });
    const error = await errorOf(res);
    expect(error.code).toBe('invalid_token');
    expect(error.message).toContain('This sandbox runs with --auth token');
    expect(error.signature).toBeUndefined();
  });

  it('--auth token: a signature says the mode takes tokens only', async () => {
    const t = await sandbox('token');
    const body = p2pBody();
    const res = await postWith(t, CREATE, body, { 'X-Auth': signatureOf('create', body) });
    expect((await errorOf(res)).message).toContain('looks like a signature, but this sandbox runs with --auth token');
  });

  it('--auth signature: the token says the mode takes signatures only', async () => {
    const t = await sandbox('signature');
    const res = await postWith(t, CREATE, p2pBody(), { 'X-Auth': DEMO.token });
    const error = await errorOf(res);
    expect(error.code).toBe('signature_mismatch');
    expect(error.message).toContain('holds a token, but this sandbox runs with --auth signature');
  });
});

describe('signatures over HTTP', () => {
  it('a signature with the other merchant secret is refused', async () => {
    const t = await sandbox('signature');
    const body = p2pBody();
    const res = await postWith(t, CREATE, body, { 'X-Auth': signatureOf('create', body, SECOND.secret) });
    expect(res.status).toBe(401);
  });

  it('a signature of other values (body changed after signing) is refused', async () => {
    const t = await sandbox('signature');
    const body = p2pBody();
    const res = await postWith(t, CREATE, { ...body, amount_cents: 99 }, { 'X-Auth': signatureOf('create', body) });
    expect(res.status).toBe(401);
  });

  it('a mismatch shows the header read, the algorithm and the exact string to sign', async () => {
    const t = await sandbox('signature');
    const body = p2pBody({ order: 'sig-1', amount_cents: 31250, customer: 'c-9', return_url: 'https://shop.example/thanks' });
    const res = await postWith(t, CREATE, body, { 'X-Auth': 'a'.repeat(64) });
    expect(res.status).toBe(401);
    const error = await errorOf(res);
    const expected = `31250::RUB::::c-9::${DEMO.id}::sig-1::https://shop.example/thanks::any_bank`;
    expect(error.code).toBe('signature_mismatch');
    expect(error.signature).toEqual({ header: 'X-Auth', algorithm: 'HMAC-SHA256, hex', string_to_sign: expected, received: 'a'.repeat(64) });
    expect(error.message).toContain(JSON.stringify(expected));
    expect(error.message).toContain('HMAC-SHA256');
    expect(error.details).toEqual([{ field: 'X-Auth', message: 'not a valid signature' }]);
  });

  it('a get mismatch shows merchant::uuid exactly as the path has them', async () => {
    const t = await sandbox('either');
    const path = tradePath(DEMO.id, '3F2A4B1C-5D6E-4F70-8A9B-0C1D2E3F4A5B');
    const res = await getWith(t, path, { 'X-Token': 'nope' });
    const error = await errorOf(res);
    expect(error.signature).toMatchObject({ header: 'X-Token', string_to_sign: `${DEMO.id}::3F2A4B1C-5D6E-4F70-8A9B-0C1D2E3F4A5B` });
    expect(error.message).toContain("neither the merchant's token nor a valid signature");
  });

  it('signing with the cusotmer spelling works, and so does the customer spelling', async () => {
    const t = await sandbox('signature');
    for (const spelling of ['customer', 'cusotmer']) {
      const body = p2pBody({ [spelling]: 'payer-1' });
      const res = await postWith(t, CREATE, body, { 'X-Auth': signatureOf('create', body) });
      expect(res.status).toBe(201);
    }
  });

  it('a signature that left the customer slot empty is refused when customer was sent', async () => {
    const t = await sandbox('signature');
    const body = p2pBody({ customer: 'payer-2' });
    const { customer: _omitted, ...unsigned } = body;
    const res = await postWith(t, CREATE, body, { 'X-Auth': signatureOf('create', unsigned) });
    const error = await errorOf(res);
    expect(error.signature?.string_to_sign).toContain('::payer-2::');
  });
});

describe('the secret never appears in a response', () => {
  it('across successes, every 401 kind, 404s and 422s, even when the secret is sent as the header', async () => {
    const texts: string[] = [];
    for (const mode of ['token', 'signature', 'either', 'off'] as const) {
      const t = await sandbox(mode);
      const body = p2pBody({ customer: 'c' });
      const responses = [
        await postWith(t, CREATE, body, { 'X-Auth': signatureOf('create', body) }),
        await postWith(t, CREATE, p2pBody(), { 'X-Auth': DEMO.secret }),
        await postWith(t, CREATE, p2pBody(), { 'X-Auth': `hmac ${DEMO.secret}` }),
        await postWith(t, CREATE, p2pBody(), { 'X-Auth': SECOND.secret }),
        await postWith(t, BUILD, ecomBody(), { 'X-Auth': 'f'.repeat(64) }),
        await postWith(t, BUILD, ecomBody(), { 'X-Token': DEMO.token }),
        await postWith(t, CREATE, p2pBody(), {}),
        await postWith(t, CREATE, p2pBody({ amount_cents: 1.5 }), { 'X-Auth': DEMO.token }),
        await getWith(t, tradePath(DEMO.id, UNKNOWN), { 'X-Token': DEMO.secret }),
        await getWith(t, tradePath(DEMO.id, UNKNOWN), { 'X-Token': DEMO.token }),
        await getWith(t, tradePath(UNKNOWN, UNKNOWN), { 'X-Token': DEMO.token }),
      ];
      for (const res of responses) texts.push(await res.text());
    }
    expect(texts.some((text) => text.includes('signature_mismatch'))).toBe(true);
    expect(texts.some((text) => text.includes('a merchant secret, not shown'))).toBe(true);
    for (const text of texts) {
      expect(text).not.toContain(DEMO.secret);
      expect(text).not.toContain(SECOND.secret);
    }
  });
});
