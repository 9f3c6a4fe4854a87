import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, makeSandbox, p2pBody, type TestSandbox } from '../../test/support.js';
import { SIGNATURE_ALGORITHM, sign } from '../auth/signature.js';

const CREATE = '/api/v1/trades/deposit/create';

let t: TestSandbox;
beforeAll(async () => {
  t = await makeSandbox();
});
afterAll(() => t.close());

/** Keys with the characters that make JSON strings hard to scan: quotes, backslashes, colons, escapes. */
const key = fc.string({ unit: fc.constantFrom('a', 'b', '"', '\\', ':', ' ', '{', '[', 'я', '\u0001'), maxLength: 4 });
const space = fc.constantFrom('', ' ', '\n', '\t ', '\r\n');

describe('duplicate keys in a JSON body', () => {
  it('are refused exactly when one object writes the same key twice, naming the first key written again', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(key, space, fc.oneof(fc.string({ maxLength: 3 }), fc.integer())), { maxLength: 6 }), async (entries) => {
        runs++;
        const meta = entries.map(([name, gap, value]) => `${JSON.stringify(name)}${gap}:${gap}${JSON.stringify(value)}`).join(',');
        const text = JSON.stringify(p2pBody()).replace('{', `{"meta":{${meta}},`);
        const seen = new Set<string>();
        const twice = entries.map(([name]) => name).find((name) => seen.has(name) || !seen.add(name));
        const res = await t.post(CREATE, text);
        if (twice === undefined) {
          expect(res.status, await res.clone().text()).toBe(201);
        } else {
          expect(res.status).toBe(422);
          const error = await errorOf(res);
          expect(error.code).toBe('invalid_json');
          expect(error.details).toEqual([{ field: twice, message: 'appears more than once' }]);
        }
      }),
      {
        numRuns: 150,
        seed: 20261124,
        // Copies of one key written with and without space before the colon, and with an escaped quote.
        examples: [
          [
            [
              ['a', ' ', 1],
              ['a', '', 2],
            ],
          ],
          [
            [
              ['"', '\n', 'x'],
              ['b', '', 1],
              ['"', '', 'y'],
            ],
          ],
        ],
      },
    );
    expect(runs).toBe(150);
  });
});

describe('one body reader for every route', () => {
  const routes = [
    CREATE,
    '/api/v1/trades/deposit/build',
    '/_sandbox/trades/00000000-0000-4000-8000-000000000000/transition',
    '/_sandbox/clock/advance',
    '/_sandbox/check-callback',
    '/w/w1/_sandbox/merchants',
    '/w/w1/_sandbox/merchants/00000000-0000-4000-8000-000000000000/sign',
  ];

  it.each(routes)('POST %s: a malformed body, a wrong type and a duplicate key get the same answers', async (path) => {
    const malformed = await errorOf(await t.post(path, '{"order": "o-1",'));
    expect(malformed).toMatchObject({ status: 422, code: 'invalid_json', message: expect.stringMatching(/^The request body is not valid JSON \(.*\)\. Check quotes, commas and brackets\.$/) });
    // The merchant routes always read JSON whatever the Content-Type (curl -d sends a form type).
    if (!path.includes('/merchants')) {
      const text = await errorOf(await t.post(path, '{"order": "o-1"}', { 'Content-Type': 'text/plain' }));
      expect(text).toMatchObject({ status: 422, code: 'invalid_json', message: 'The request body must be JSON sent with "Content-Type: application/json"; got "text/plain".' });
    }
    const twice = await errorOf(await t.post(path, '{"order": "a", "order": "b"}'));
    expect(twice).toMatchObject({ status: 422, code: 'invalid_json', details: [{ field: 'order', message: 'appears more than once' }] });
  });

  it('POST /_sandbox/merchants may come without a body; its fields are checked like every other body', async () => {
    const added = await t.app.request('/w/w2/_sandbox/merchants', { method: 'POST' });
    expect(added.status).toBe(201);
    const wrong = await errorOf(await t.post('/w/w2/_sandbox/merchants', { name: 5, colour: 'red' }));
    expect(wrong).toMatchObject({ status: 422, code: 'validation_failed' });
    expect(wrong.details.map((detail) => detail.field)).toEqual(['name']);
  });

  // docs/security.md: unknown fields of admin bodies are ignored, as the provider's are.
  it('an unknown field of an admin body is ignored: the merchant routes take what they know, like the others', async () => {
    const res = await t.post('/w/w4/_sandbox/merchants', '{"name":"Shop with extras","rate":91.5,"colour":"red","from":"workspace","__proto__":{"secret":"smuggled-secret"}}');
    expect(res.status).toBe(201);
    const { merchant } = (await res.json()) as { merchant: { id: string; name: string; rate: number; token: string; secret: string } };
    expect(Object.keys(merchant).sort()).toEqual(['id', 'name', 'rate', 'secret', 'token']);
    expect(merchant).toMatchObject({ name: 'Shop with extras', rate: 91.5 });
    expect(merchant.secret).not.toBe('smuggled-secret');
    const listed = (await (await t.app.request('/w/w4/_sandbox/merchants')).json()) as { merchants: Array<{ id: string }> };
    expect(listed.merchants.find((m) => m.id === merchant.id)).toEqual({ id: merchant.id, name: 'Shop with extras', rate: 91.5, from: 'workspace' });
    const signed = await t.post(`/w/w4/_sandbox/merchants/${merchant.id}/sign`, { string_to_sign: 'a::b', algorithm: 'md5' });
    expect(await signed.json()).toEqual({ signature: sign(merchant.secret, 'a::b'), algorithm: SIGNATURE_ALGORITHM, merchant: merchant.id });
    // The other admin bodies did so already: the transition gets past its body to the unknown trade.
    const transition = await errorOf(await t.post('/_sandbox/trades/00000000-0000-4000-8000-000000000000/transition', { state: 'confirmed', colour: 'red' }));
    expect(transition.code).toBe('not_found');
  });

  it('a scenario upload that is not UTF-8 is refused, not stored with replacement characters', async () => {
    const yaml = Buffer.concat([Buffer.from('scenarios:\n  - name: cp1251\n    description: '), Buffer.from([0xcf, 0xf0, 0xe8]), Buffer.from('\n    match: {order: "^x-"}\n')]);
    const res = await t.app.request('/w/w3/_sandbox/scenarios', { method: 'PUT', body: yaml });
    expect(await errorOf(res)).toMatchObject({ status: 422, code: 'invalid_body', message: expect.stringMatching(/^The request body is not valid UTF-8 .*Send the file as UTF-8 text/) });
  });
});
