/**
 * Hostile bodies, in-process: each gets a clear error envelope and changes nothing stored.
 * (Prototype pollution: hostile-prototype.test.ts; over real sockets: hostile-http.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/http/body.js';
import { LIMITS } from '../../src/trades/requests.js';
import { BUILD, CREATE, hostileSuite, invalid, invalidJson, json, nested } from '../hostile-support.js';
import { DEMO, ecomBody, errorOf, nextOrder, p2pBody } from '../support.js';

const suite = hostileSuite();

describe('bodies that are not a JSON object', () => {
  it.each([
    ['empty', '', /body is empty/],
    ['whitespace', ' \n\t ', /body is empty/],
    ['null', 'null', /got null/],
    ['an array', '[]', /got an array/],
    ['an array of bodies', json([p2pBody()]), /got an array/],
    ['a string', '"merchant"', /got string/],
    ['a number', '42', /got number/],
    ['truncated JSON', json(p2pBody()).slice(0, 40), /not valid JSON/],
    ['a trailing comma', '{"merchant":"x",}', /not valid JSON/],
    ['JSON with comments', '{/* hi */}', /not valid JSON/],
    ['NaN', '{"amount_cents":NaN}', /not valid JSON/],
  ])('%s: 422 invalid_json', async (_name, body, message) => {
    for (const path of [CREATE, BUILD]) await suite.refused(path, body, invalidJson(message));
  });

  it('a body sent with the wrong content type', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx']) {
      await suite.refused(CREATE, json(p2pBody()), invalidJson(/must be JSON sent with "Content-Type: application\/json"/), { 'Content-Type': type });
    }
  });
});

describe('deep nesting', () => {
  it(`refuses more than ${MAX_JSON_DEPTH} levels, whatever the field, and 32,000 levels within the body limit`, async () => {
    const deep = /nests arrays or objects more than 32 levels deep/;
    await suite.refused(CREATE, nested(MAX_JSON_DEPTH + 1), invalidJson(deep));
    await suite.refused(CREATE, nested(32_000), invalidJson(deep)); // 64,000 bytes: under the 64 KiB limit
    await suite.refused(CREATE, `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`, invalidJson(deep));
    for (const field of ['merchant', 'order', 'amount_cents', 'customer', 'callback_url', 'return_url', 'unknown']) {
      const { [field]: _dropped, ...rest } = p2pBody();
      await suite.refused(CREATE, json(rest).replace(/}$/, `,"${field}":${nested(20_000)}}`), invalidJson(deep));
    }
  });

  it('beyond the body limit (100,000 nested arrays) it is a 413', async () => {
    await suite.refused(CREATE, nested(100_000), { status: 413, code: 'body_too_large', message: /larger than 65536 bytes/ });
  });

  it(`${MAX_JSON_DEPTH} levels are read (and then refused by validation as usual)`, async () => {
    await suite.refused(CREATE, json({ ...p2pBody(), order: JSON.parse(nested(MAX_JSON_DEPTH - 1)) as unknown }), invalid('order', /order must be a string/));
  });
});

describe('the body size limit', () => {
  const big = json(p2pBody({ order: 'x'.repeat(5 * 1024 * 1024) }));

  it('refuses megabytes with 413 body_too_large, with and without Content-Length', async () => {
    const tooLarge = { status: 413, code: 'body_too_large', message: new RegExp(`larger than ${LIMITS.maxBodyBytes} bytes`) };
    await suite.refused(CREATE, big, tooLarge); // no Content-Length: counted while read
    await suite.refused(CREATE, big, tooLarge, { 'Content-Length': String(big.length) });
    await suite.refused(BUILD, big, tooLarge);
    // A stream without a length, as a chunked upload arrives.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 100; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(1024)));
        controller.close();
      },
    });
    const res = await suite.t.app.request(CREATE, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token }, body: stream, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect(await errorOf(res)).toMatchObject({ code: 'body_too_large' });
  });

  it('accepts a body just under the limit', async () => {
    const body = p2pBody({ customer: 'c' });
    const padding = LIMITS.maxBodyBytes - json(body).length - 20;
    const text = json(body).replace('{', `{"padding":"${'p'.repeat(padding)}",`);
    expect(text.length).toBeLessThanOrEqual(LIMITS.maxBodyBytes);
    const res = await suite.t.post(CREATE, text);
    expect(res.status).toBe(201);
  });
});

describe('field values', () => {
  it('numbers: past MAX_SAFE_INTEGER, 1e309, -0, above the maximum, fractions', async () => {
    const amount = (raw: string) => json(p2pBody({ amount_cents: 0 })).replace('"amount_cents":0', `"amount_cents":${raw}`);
    await suite.refused(CREATE, amount('9007199254740993'), invalid('amount_cents', /past 9007199254740991/));
    await suite.refused(CREATE, amount('123456789012345678901234567890'), invalid('amount_cents', /past 9007199254740991/));
    await suite.refused(CREATE, amount('1e309'), invalid('amount_cents', /Infinity \(a number too large to represent\)/));
    await suite.refused(CREATE, amount('-1e309'), invalid('amount_cents', /-Infinity/));
    await suite.refused(CREATE, amount('-0'), invalid('amount_cents', /positive/));
    await suite.refused(CREATE, amount('0'), invalid('amount_cents', /positive/));
    await suite.refused(CREATE, amount(String(LIMITS.maxAmountCents + 1)), invalid('amount_cents', new RegExp(`at most ${LIMITS.maxAmountCents} kopecks`)));
    await suite.refused(CREATE, amount('312.5'), invalid('amount_cents', /not rubles/));
    await suite.refused(CREATE, amount('1e-7'), invalid('amount_cents', /not rubles/));
    const max = await suite.t.post(CREATE, p2pBody({ amount_cents: LIMITS.maxAmountCents }));
    expect(max.status, 'the documented maximum itself is accepted').toBe(201);
  });

  it('duplicate keys, whichever copy is valid', async () => {
    const body = json(p2pBody());
    await suite.refused(CREATE, body.replace('{', '{"amount_cents":"312",'), { ...invalidJson(/names the field "amount_cents" more than once/), field: 'amount_cents' });
    await suite.refused(CREATE, body.replace('{', `{"merchant":"${DEMO.id}",`), { ...invalidJson(/"merchant" more than once/), field: 'merchant' });
    await suite.refused(CREATE, body.replace('{', '{"\\u006frder":"other",'), { ...invalidJson(/"order" more than once/), field: 'order' });
    await suite.refused(CREATE, body.replace('{', '{"meta":[{"k":1},{"k":1,"k":2}],'), { ...invalidJson(/"k" more than once/), field: 'k' });
    // A key ending in a backslash: its closing quote is not escaped.
    await suite.refused(CREATE, body.replace('{', '{"x\\\\":1,"x\\\\":2,'), { ...invalidJson(/"x\\\\" more than once/), field: 'x\\' });
    // The same key in different objects is not a duplicate.
    const ok = await suite.t.post(CREATE, body.replace('{', '{"meta":{"order":1,"x":{"order":2}},'));
    expect(ok.status).toBe(201);
    // Quotes, colons and backslashes inside values are not keys.
    const quoted = await suite.t.post(CREATE, p2pBody({ order: nextOrder('say "order": \\'), customer: '"order":"customer":' }));
    expect(quoted.status).toBe(201);
  });

  it('NUL, control characters and lone surrogates in text fields', async () => {
    for (const field of ['order', 'customer', 'cusotmer']) {
      await suite.refused(CREATE, json(p2pBody({ [field]: 'a\u0000b' })), invalid(field, /control character \(U\+0000\) at position 1/));
      await suite.refused(CREATE, json(p2pBody({ [field]: 'line\nbreak' })), invalid(field, /control character \(U\+000A\)/));
      await suite.refused(CREATE, json(p2pBody({ [field]: 'del\u007f' })), invalid(field, /U\+007F/));
      await suite.refused(CREATE, json(p2pBody({ [field]: 'a\ud800b' })), invalid(field, /unpaired UTF-16 surrogate \(U\+D800\)/));
      await suite.refused(CREATE, json(p2pBody({ [field]: '\udc00' })), invalid(field, /unpaired UTF-16 surrogate \(U\+DC00\)/));
    }
    await suite.refused(CREATE, json(p2pBody({ callback_url: 'http://127.0.0.1:1/\u0000' })), invalid('callback_url', /control character/));
    await suite.refused(CREATE, json(p2pBody({ return_url: 'https://shop.example/\ud83d' })), invalid('return_url', /surrogate/));
    // Paired surrogates (emoji) and other Unicode are fine.
    expect((await suite.t.post(CREATE, p2pBody({ order: nextOrder('заказ-💳'), customer: 'Zoë 👩‍💻' }))).status).toBe(201);
  });

  it('bytes that are not UTF-8', async () => {
    const prefix = new TextEncoder().encode(json(p2pBody()).replace(/}$/, ',"customer":"'));
    const bytes = (...tail: number[]) => Uint8Array.from([...prefix, ...tail, 0x22, 0x7d]);
    const notUtf8 = invalidJson(/not valid UTF-8/);
    await suite.refused(CREATE, bytes(0xff, 0xfe), notUtf8);
    await suite.refused(CREATE, bytes(0xe9), notUtf8); // "é" in Latin-1
    await suite.refused(CREATE, bytes(0xc3), notUtf8); // a sequence cut short
    await suite.refused(CREATE, bytes(0xed, 0xa0, 0x80), notUtf8); // a surrogate encoded as UTF-8 (CESU-8)
    await suite.refused(CREATE, bytes(0xc0, 0xaf), notUtf8); // an overlong "/"
    // A UTF-8 byte order mark in front is accepted.
    const bom = Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(json(p2pBody()))]);
    expect((await suite.t.app.request(CREATE, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token }, body: bom })).status).toBe(201);
  });

  it.each([
    'file:///etc/passwd',
    'data:text/html,<script>alert(1)</script>',
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'ftp://example.com/x',
    'gopher://example.com',
    'ws://example.com',
    'mailto:a@b.c',
    '//example.com/x',
    'http:/example.com',
    'http://',
    ' https://example.com',
  ])('refuses %s as callback_url and return_url', async (url) => {
    for (const [path, body] of [
      [CREATE, p2pBody],
      [BUILD, ecomBody],
    ] as const) {
      await suite.refused(path, json(body({ callback_url: url })), invalid('callback_url', /must be an absolute http:\/\/ or https:\/\/ URL/));
      await suite.refused(path, json(body({ return_url: url })), invalid('return_url', /must be an absolute http:\/\/ or https:\/\/ URL/));
    }
  });

  it('over-long order, customer and URLs (the limits themselves are accepted)', async () => {
    const url = (length: number) => `https://shop.example/${'u'.repeat(length - 'https://shop.example/'.length)}`;
    await suite.refused(CREATE, json(p2pBody({ order: 'o'.repeat(LIMITS.maxOrderLength + 1) })), invalid('order', /at most 255 characters/));
    await suite.refused(CREATE, json(p2pBody({ customer: 'c'.repeat(LIMITS.maxCustomerLength + 1) })), invalid('customer', /at most 255 characters/));
    await suite.refused(CREATE, json(p2pBody({ cusotmer: 'c'.repeat(LIMITS.maxCustomerLength + 1) })), invalid('cusotmer', /at most 255 characters/));
    await suite.refused(CREATE, json(p2pBody({ callback_url: url(LIMITS.maxUrlLength + 1) })), invalid('callback_url', /at most 2048 characters/));
    await suite.refused(CREATE, json(p2pBody({ return_url: url(LIMITS.maxUrlLength + 1) })), invalid('return_url', /at most 2048 characters/));
    const atLimits = p2pBody({ order: `${nextOrder()}-`.padEnd(LIMITS.maxOrderLength, 'o'), customer: 'c'.repeat(LIMITS.maxCustomerLength), return_url: url(LIMITS.maxUrlLength) });
    expect((await suite.t.post(CREATE, atLimits)).status).toBe(201);
  });
});
