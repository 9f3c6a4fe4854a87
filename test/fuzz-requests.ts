import fc from 'fast-check';
import { LIMITS } from '../src/trades/requests.js';
import { DEMO, SECOND } from './support.js';

/**
 * Generated requests for the fuzz suite (test/in-process/fuzz.test.ts). Each is plain data, so a
 * failing case prints readably: `$T0`, `$T1`... in a path stand for the run's created trades
 * (a random UUID when there are fewer), `$C0`... for its callback events, `$DEMO` / `$SECOND`
 * for the bundled merchants. Headers and signatures are resolved when the request is sent.
 */
export interface FuzzRequest {
  method: string;
  path: string;
  /** How X-Auth / X-Token are filled. */
  auth: { header: 'X-Auth' | 'X-Token' | 'both' | 'none'; value: AuthValue };
  contentType: string | undefined;
  /** Authorization for the admin API: the run's admin token, a wrong one, or nothing. */
  bearer: 'admin' | 'wrong' | 'garbage' | 'none';
  origin: string | undefined;
  fetchSite: string | undefined;
  host: string | undefined;
  scenario: string | undefined;
  extra: Record<string, string>;
  body: FuzzBody;
}

export type AuthValue = 'token-demo' | 'token-second' | 'sig-demo' | 'sig-second' | 'sig-wrong' | { garbage: string };

export type FuzzBody = { kind: 'none' } | { kind: 'json'; value: Record<string, unknown>; inject?: string } | { kind: 'raw'; text: string } | { kind: 'bytes'; bytes: number[] };

/** The callback URL of the suite's receiver (set before the run); a refused port otherwise. */
export const targets = { receiver: 'http://127.0.0.1:1/refused' };

/** `arbitrary` about once in `every` draws, undefined otherwise. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, every: number): fc.Arbitrary<T | undefined> => fc.oneof({ weight: every - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });

const printable = (maxLength: number) => fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength });
/** Surrogate code points (U+D800-U+DFFF): never a unit of their own. */
const SURROGATES = 0xe000 - 0xd800;
/**
 * One code point of the whole of Unicode but the surrogates: fast-check's `unit: 'binary'`, drawn
 * and shrunk the same (the same index for the same seed, so the same strings), without its cost.
 * fast-check tells whether a value could have been drawn by that unit (which it asks once, when a
 * string arbitrary of it is built) with a Map of all 1,112,064 code points: seconds of CPU, and a
 * map every later garbage collection of the test's worker walks. This computes the index back.
 * fast-check's fc.webSegment(), fc.webPath() and fc.webQueryParameters() percent-encode code
 * points of that unit too, so `web` below rebuilds them on this one.
 */
export const anyCodePoint = fc.nat({ max: 0x10ffff - SURROGATES }).map(
  (index) => String.fromCodePoint(index < 0xd800 ? index : index + SURROGATES),
  (value) => {
    const code = typeof value === 'string' ? value.codePointAt(0) : undefined;
    if (code === undefined || value !== String.fromCodePoint(code) || (code >= 0xd800 && code < 0xe000)) throw new Error('not one code point');
    return code < 0xd800 ? code : code - SURROGATES;
  },
);

/** fast-check's percent-encoded character: any code point, as encodeURIComponent writes it (or %xx). */
const percentChar = fc.string({ unit: anyCodePoint, minLength: 1, maxLength: 1 }).map(
  (c) => {
    const encoded = encodeURIComponent(c);
    return c !== encoded ? encoded : `%${c.charCodeAt(0).toString(16)}`;
  },
  (value) => {
    if (typeof value !== 'string') throw new Error('not a string');
    return decodeURIComponent(value);
  },
);
const charsFrom = (first: number, count: number) => ({ num: count, build: (v: number) => String.fromCharCode(first + v) });
/** A letter, a digit or one of `others` (ten times in eleven), else a percent-encoded character. */
const uriChar = (others: string) =>
  fc.oneof(
    { weight: 10, arbitrary: fc.mapToConstant(charsFrom(0x61, 26), charsFrom(0x41, 26), charsFrom(0x30, 10), { num: others.length, build: (v) => others[v]! }) },
    { weight: 1, arbitrary: percentChar },
  );
const segmentChar = uriChar("-._~!$&'()*+,;=:@");
const queryChar = uriChar("-._~!$&'()*+,;=:@/?");
const webSegment = (size?: fc.SizeForArbitrary) => fc.string({ unit: segmentChar, ...(size ? { size } : {}) });
const pathOf = (segmentSize: fc.SizeForArbitrary, count: fc.SizeForArbitrary) =>
  fc.array(webSegment(segmentSize), { size: count }).map(
    (segments) => segments.map((segment) => `/${segment}`).join(''),
    (value) => {
      if (typeof value !== 'string' || (value.length !== 0 && value[0] !== '/')) throw new Error('not a path');
      return value.split('/').slice(1);
    },
  );
/** fc.webSegment(), fc.webPath() and fc.webQueryParameters() (fast-check's default size, small), the same values for the same seed. */
export const web = {
  segment: () => webSegment(),
  path: () => fc.oneof(pathOf('small', 'xsmall'), pathOf('xsmall', 'small')),
  queryParameters: () => fc.string({ unit: queryChar }),
};

const anyText = (maxLength: number) => fc.oneof(fc.string({ maxLength }), fc.string({ unit: anyCodePoint, maxLength }), fc.string({ unit: 'grapheme', maxLength }), printable(maxLength));

const HOSTILE_STRINGS = [
  '',
  ' ',
  '__proto__',
  'constructor',
  'prototype',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'; DROP TABLE trades; --",
  'x\u0000y',
  'a\ud800b',
  '\udfff',
  '\u202egnp.exe',
  '../../etc/passwd',
  '%00',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as it is
  '${7*7}',
  'a'.repeat(LIMITS.maxOrderLength),
  'a'.repeat(LIMITS.maxOrderLength + 1),
  DEMO.token,
];

const hostileString = fc.oneof({ weight: 3, arbitrary: anyText(40) }, { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) });

/** Orders: mostly fresh, some triggering bundled scenarios (never the 10 s "sbx-slow-" one), some hostile. */
const order = fc
  .oneof(
    { weight: 6, arbitrary: fc.nat().map((n) => `fz-${n}`) },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom('sbx-confirm-', 'sbx-cancel-', 'sbx-expire-', 'sbx-reject-', 'sbx-unauth-', 'sbx-flaky-', 'sbx-dup-', 'sbx-badsig-'), fc.nat()).map(([p, n]) => `${p}${n}`),
    },
    { weight: 2, arbitrary: hostileString },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 42, true, [], {}, ['fz']) },
  )
  .filter((value) => typeof value !== 'string' || !/^sbx-slow-/i.test(value));

const amount = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: LIMITS.maxAmountCents }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(0, -1, -0, LIMITS.maxAmountCents + 1, Number.MAX_SAFE_INTEGER + 2, 3.12, '312', null, true, [312], { v: 1 }) },
  { weight: 1, arbitrary: fc.double() },
);

const url = (kind: 'callback' | 'return') =>
  fc.oneof(
    { weight: 5, arbitrary: kind === 'callback' ? web.path().map((path) => `${targets.receiver}/cb${path}`) : fc.constant('https://shop.example/thanks?o=1') },
    { weight: 1, arbitrary: fc.constant('http://127.0.0.1:1/refused') },
    {
      weight: 2,
      arbitrary: fc.constantFrom<unknown>(
        'file:///etc/passwd',
        'data:text/html,<script>alert(1)</script>',
        'javascript:alert(1)',
        'ftp://example.com/x',
        'http://',
        '//example.com/x',
        '',
        `https://example.com/${'a'.repeat(LIMITS.maxUrlLength)}`,
        'http://exa mple.com/',
        'http://127.0.0.1:1/\u0000',
        null,
        7,
      ),
    },
  );

/** A body the endpoint accepts (given the right credentials). */
const validDeposit = (type: 'any_bank' | 'ecom') =>
  fc.record(
    {
      merchant: fc.oneof({ weight: 4, arbitrary: fc.constant(DEMO.id) }, { weight: 1, arbitrary: fc.constant(SECOND.id) }),
      order: fc.oneof(
        { weight: 4, arbitrary: fc.nat().map((n) => `fz-${n}`) },
        { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).filter((o) => o.trim() !== '' && !/^sbx-slow-/i.test(o)) },
      ),
      amount_cents: fc.integer({ min: 1, max: LIMITS.maxAmountCents }),
      amount_currency: fc.constant('RUB'),
      type: type === 'ecom' ? fc.constant('ecom') : fc.constantFrom('any_bank', 'nspk'),
      customer: printable(40),
      callback_url: web.path().map((path) => `${targets.receiver}/cb${path}`),
      return_url: fc.constant('https://shop.example/thanks?o=1'),
    },
    { requiredKeys: ['merchant', 'order', 'amount_cents', 'amount_currency', 'type'] },
  );

/** A create (P2P) or build (ecom) body: valid, or broken (hostile values, fields dropped, replaced, added). */
export const depositBody = (type: 'any_bank' | 'ecom'): fc.Arbitrary<FuzzBody> =>
  fc.oneof({ weight: 3, arbitrary: validDeposit(type).map((value): FuzzBody => ({ kind: 'json', value })) }, { weight: 2, arbitrary: brokenDeposit(type) });

// What the chain below draws for every body besides the body's own keys, built once.
const changedValue = fc.jsonValue({ maxDepth: 3 });
const pollution = sometimes(fc.constantFrom('"__proto__":{"polluted":"yes"},', '"constructor":{"prototype":{"polluted":"yes"}},', '"prototype":{"polluted":"yes"},', '"amount_cents":"first",'), 6);

const brokenDeposit = (type: 'any_bank' | 'ecom') =>
  fc
    .record(
      {
        merchant: fc.oneof(
          { weight: 8, arbitrary: fc.constantFrom<unknown>(DEMO.id, SECOND.id) },
          { weight: 1, arbitrary: fc.constantFrom<unknown>(DEMO.id.toUpperCase(), '00000000-0000-4000-8000-000000000000', 'demo', null, 1) },
        ),
        order,
        amount_cents: amount,
        amount_currency: fc.oneof({ weight: 8, arbitrary: fc.constant<unknown>('RUB') }, { weight: 1, arbitrary: fc.constantFrom<unknown>('rub', 'USD', '', null, 643) }),
        type: fc.oneof(
          { weight: 8, arbitrary: fc.constant<unknown>(type === 'ecom' ? 'ecom' : 'any_bank') },
          { weight: 2, arbitrary: fc.constantFrom<unknown>('nspk', 'ecom', 'any_bank', 'ANY_BANK', null) },
        ),
        customer: hostileString,
        cusotmer: hostileString,
        callback_url: url('callback'),
        return_url: url('return'),
      },
      { requiredKeys: ['merchant', 'order', 'amount_cents', 'amount_currency', 'type'] },
    )
    .chain((body) =>
      fc.record({
        kind: fc.constant('json' as const),
        value: fc.oneof(
          { weight: 6, arbitrary: fc.constant(body as Record<string, unknown>) },
          { weight: 2, arbitrary: fc.subarray(Object.keys(body)).map((drop) => Object.fromEntries(Object.entries(body).filter(([key]) => !drop.includes(key)))) },
          {
            weight: 2,
            arbitrary: fc.dictionary(fc.constantFrom(...Object.keys(body), 'extra', 'toString', 'hasOwnProperty'), changedValue, { maxKeys: 3 }).map((changes) => ({ ...body, ...changes })),
          },
        ),
        inject: pollution,
      }),
    );

/** Bodies no endpoint accepts. */
export const hostileBody: fc.Arbitrary<FuzzBody> = fc.oneof(
  fc.constantFrom<FuzzBody>(
    { kind: 'none' },
    { kind: 'raw', text: '' },
    { kind: 'raw', text: 'null' },
    { kind: 'raw', text: '[]' },
    { kind: 'raw', text: '"text"' },
    { kind: 'raw', text: '{"merchant":' },
    { kind: 'raw', text: '{"amount_cents":1e309}' },
    { kind: 'raw', text: '{"amount_cents":-0}' },
    { kind: 'raw', text: '{"amount_cents":123456789012345678901234567890}' },
    { kind: 'raw', text: `${'['.repeat(40)}${']'.repeat(40)}` },
    { kind: 'raw', text: `{"a":${'['.repeat(20_000)}${']'.repeat(20_000)}}` },
    { kind: 'raw', text: `{"merchant":${'['.repeat(20_000)}${']'.repeat(20_000)}}` },
    { kind: 'raw', text: `{"merchant":"${DEMO.id}","customer":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}` },
    { kind: 'raw', text: `{"order":"${'x'.repeat(70_000)}"}` },
    { kind: 'raw', text: '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}' },
    { kind: 'bytes', bytes: [0x7b, 0x22, 0x6f, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d] },
    { kind: 'bytes', bytes: [0xef, 0xbb, 0xbf, 0x7b, 0x7d] },
  ),
  fc.string({ maxLength: 200 }).map((text): FuzzBody => ({ kind: 'raw', text })),
  fc.jsonValue({ maxDepth: 4 }).map((value): FuzzBody => ({ kind: 'raw', text: JSON.stringify(value) })),
  fc.uint8Array({ maxLength: 64 }).map((bytes): FuzzBody => ({ kind: 'bytes', bytes: [...bytes] })),
);

const transitionBody = fc.record({
  kind: fc.constant('json' as const),
  value: fc.record(
    {
      state: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom<unknown>('confirmed', 'canceled', 'expired', 'created', 'ecom') },
        { weight: 1, arbitrary: fc.constantFrom<unknown>('paid', '', null, 1, '__proto__') },
      ),
      note: fc.oneof(hostileString, fc.constant<unknown>('n'.repeat(501)), fc.constant<unknown>(5)),
    },
    { requiredKeys: ['state'] },
  ),
});

const advanceBody = fc.record({
  kind: fc.constant('json' as const),
  value: fc.record({ by: fc.constantFrom<unknown>('0', 0, '1s', '10m', '2h', '1d', 1500, '3650d', '3651d', '-5m', 'soon', '', null, 1e300, '1e309', '__proto__') }),
});

const checkCallbackBody = fc.record({
  kind: fc.constant('json' as const),
  value: fc.record(
    {
      // Only local or refused addresses: the check sends real requests.
      url: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom('/check', '/fail').map((path) => `${targets.receiver}${path}`) },
        { weight: 1, arbitrary: fc.constantFrom<unknown>('http://127.0.0.1:1/refused', 'file:///etc/passwd', 'javascript:alert(1)', 'ftp://127.0.0.1/x', '', null, 42) },
      ),
      merchant: fc.constantFrom<unknown>(DEMO.id, SECOND.id, 'nobody', '__proto__', 5),
      order: hostileString,
    },
    { requiredKeys: [] },
  ),
});

const formBody = fc
  .record({
    number: fc.constantFrom('4242 4242 4242 4242', '4000 0000 0000 0002', '4242424242424241', '', 'x'.repeat(65), '<script>'),
    expiry: fc.constantFrom('12/39', '01/20', '13/40', '', 'soon'),
    cvc: fc.constantFrom('123', '12', 'abc', ''),
  })
  .map((form): FuzzBody => ({ kind: 'raw', text: new URLSearchParams(form).toString() }));

const tradeRef = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 7 }).map((i) => `$T${i}`) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 7 }).map((i) => `$T${i}!upper`) },
  { weight: 1, arbitrary: fc.uuid() },
  { weight: 2, arbitrary: fc.oneof(web.segment(), fc.constantFrom('__proto__', 'constructor', '%ZZ', '%00', '..%2F..', 'a'.repeat(300), '%F0%9F%92%A9')) },
);
const merchantRef = fc.oneof({ weight: 6, arbitrary: fc.constantFrom('$DEMO', '$SECOND') }, { weight: 1, arbitrary: fc.oneof(fc.uuid(), web.segment(), fc.constantFrom('deposit', '__proto__')) });
const callbackRef = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 5 }).map((i) => `$C${i}`) }, { weight: 1, arbitrary: fc.oneof(web.segment(), fc.constantFrom('__proto__', 'cb_x_1')) });
const query = fc.oneof(
  fc.constant(''),
  web.queryParameters().map((q) => `?${q}`),
  fc.constantFrom(
    '?limit=1',
    '?limit=1000',
    '?limit=1001',
    '?limit=0',
    '?offset=-1',
    '?state=confirmed',
    '?state=bogus',
    '?status=failed',
    '?merchant=$DEMO',
    '?order=fz-1',
    '?limit=1&limit=2',
    '?__proto__=1&__proto__=2',
    '?limit=1e309',
    '?trade=$T0',
  ),
);

interface RouteSpec {
  method: string;
  path: fc.Arbitrary<string>;
  body: fc.Arbitrary<FuzzBody>;
  weight: number;
}

const none = fc.constant<FuzzBody>({ kind: 'none' });
const p = (...parts: Array<string | fc.Arbitrary<string>>) => fc.tuple(...parts.map((part) => (typeof part === 'string' ? fc.constant(part) : part))).map((values) => values.join(''));

/** Every route of the sandbox, weighted towards the provider endpoints. */
export const ROUTES: RouteSpec[] = [
  { method: 'POST', path: fc.constant('/api/v1/trades/deposit/create'), body: depositBody('any_bank'), weight: 12 },
  { method: 'POST', path: fc.constant('/api/v1/trades/deposit/build'), body: depositBody('ecom'), weight: 6 },
  { method: 'GET', path: p('/api/v1/trades/', merchantRef, '/', tradeRef), body: none, weight: 8 },
  { method: 'GET', path: fc.constant('/_sandbox/health'), body: none, weight: 1 },
  { method: 'GET', path: p('/_sandbox/trades', query), body: none, weight: 2 },
  { method: 'GET', path: p('/_sandbox/trades/', tradeRef), body: none, weight: 2 },
  { method: 'POST', path: p('/_sandbox/trades/', tradeRef, '/transition'), body: transitionBody, weight: 4 },
  { method: 'GET', path: p('/_sandbox/callbacks', query), body: none, weight: 1 },
  { method: 'GET', path: p('/_sandbox/callbacks/', callbackRef), body: none, weight: 1 },
  { method: 'POST', path: p('/_sandbox/callbacks/', callbackRef, '/replay'), body: none, weight: 1 },
  { method: 'GET', path: fc.constant('/_sandbox/clock'), body: none, weight: 1 },
  { method: 'POST', path: fc.constant('/_sandbox/clock/advance'), body: advanceBody, weight: 2 },
  { method: 'GET', path: fc.constant('/_sandbox/scenarios'), body: none, weight: 1 },
  { method: 'POST', path: fc.constant('/_sandbox/reset'), body: none, weight: 0.2 },
  { method: 'POST', path: fc.constant('/_sandbox/check-callback'), body: checkCallbackBody, weight: 0.5 },
  { method: 'GET', path: fc.constantFrom('/_sandbox/', '/_sandbox', '/_sandbox/assets/dashboard.js', '/_sandbox/assets/dashboard.css', '/openapi.json'), body: none, weight: 1 },
  { method: 'GET', path: p('/pay/', tradeRef, fc.constantFrom('', '/result')), body: none, weight: 3 },
  { method: 'POST', path: p('/pay/', tradeRef, '/pay'), body: formBody, weight: 2 },
  { method: 'POST', path: p('/pay/', tradeRef, '/cancel'), body: none, weight: 1 },
  { method: 'GET', path: fc.constantFrom('/assets/pay.css', '/assets/pay.js'), body: none, weight: 0.5 },
  {
    method: 'GET',
    path: fc.oneof(
      web.path(),
      fc.constantFrom('/', '//', '/api', '/api/v1/trades', '/api/v1/trades/deposit', '/%2e%2e/etc/passwd', '/_sandbox/../api/v1/trades/deposit/create', '/api/v1/trades/deposit/create/'),
    ),
    body: none,
    weight: 2,
  },
];

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'];
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'json',
  '',
];

const authValue: fc.Arbitrary<AuthValue> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom<AuthValue>('token-demo', 'sig-demo') },
  { weight: 2, arbitrary: fc.constantFrom<AuthValue>('token-second', 'sig-second', 'sig-wrong') },
  { weight: 1, arbitrary: fc.oneof(printable(80), fc.constantFrom('0'.repeat(64), DEMO.secret, 'Bearer x')).map((garbage) => ({ garbage })) },
);

/**
 * The requests of one route: its method (sometimes another), headers, and a body. Built once per
 * route rather than in the chain below, which would build it again for every request drawn (the
 * same arbitrary, so the same requests for the same seed).
 */
const routeRequest = (route: RouteSpec): fc.Arbitrary<FuzzRequest> =>
  fc.record({
    method: fc.oneof({ weight: 9, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
    path: route.path,
    auth: fc.record({
      header: fc.oneof(
        { weight: 8, arbitrary: fc.constant(route.method === 'GET' ? ('X-Token' as const) : ('X-Auth' as const)) },
        { weight: 1, arbitrary: fc.constantFrom('X-Auth', 'X-Token', 'both', 'none') as fc.Arbitrary<FuzzRequest['auth']['header']> },
      ),
      value: authValue,
    }),
    contentType: fc.oneof(
      { weight: 8, arbitrary: fc.constant<string | undefined>(route.body === formBody ? 'application/x-www-form-urlencoded' : 'application/json') },
      { weight: 2, arbitrary: fc.constantFrom<string | undefined>(...CONTENT_TYPES, undefined) },
    ),
    bearer: fc.oneof({ weight: 8, arbitrary: fc.constant('admin' as const) }, { weight: 1, arbitrary: fc.constantFrom('wrong', 'garbage', 'none') as fc.Arbitrary<FuzzRequest['bearer']> }),
    origin: sometimes(fc.constantFrom('http://localhost', 'https://evil.example', 'null', 'http://localhost:3000'), 12),
    fetchSite: sometimes(fc.constantFrom('same-origin', 'none', 'same-site', 'cross-site'), 12),
    host: sometimes(fc.constantFrom('localhost', '127.0.0.1:4242', '[::1]:4242', 'evil.example', 'evil.example:4242'), 15),
    scenario: sometimes(
      fc.oneof(fc.constantFrom('confirm', 'cancel', 'expire', 'reject', 'unauthorized', 'flaky-callbacks', 'duplicate-callback', 'bad-signature-callback', 'CONFIRM'), printable(20)),
      10,
    ).filter((name) => name === undefined || name.trim().toLowerCase() !== 'slow'),
    extra: fc.oneof(
      { weight: 5, arbitrary: fc.constant({}) },
      { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('X-Forwarded-For', 'X-Forwarded-Host', 'Accept', 'Accept-Encoding', 'Cookie', 'X-Requested-With'), printable(30), { maxKeys: 2 }) },
    ),
    body: fc.oneof({ weight: 4, arbitrary: route.body }, { weight: 1, arbitrary: hostileBody }),
  });
const requestOf = new Map(ROUTES.map((route) => [route, routeRequest(route)]));

/** One generated request: a route (sometimes with the wrong method), headers, and a body. */
export const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc
  .oneof(...ROUTES.map((route) => ({ weight: Math.max(1, Math.round(route.weight * 5)), arbitrary: fc.constant(route) })))
  .chain((route) => requestOf.get(route)!);
