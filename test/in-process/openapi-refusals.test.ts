/**
 * /openapi.json describes what the sandbox refuses, so that a schema-driven tester (Schemathesis
 * and the like) does not send requests the document allows and the sandbox refuses: each enum,
 * pattern and format the document adds to what zod says is checked against the route's real
 * answers (a value the schema allows is accepted, one it forbids is refused); request bodies are
 * listed under media types a client can send as written; a method a path does not take is a 405
 * with Allow; the links of the create answers lead to operations that exist and answer.
 */
import { request as httpRequest } from 'node:http';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCallbackRequestSchema } from '../../src/admin/check-callback-routes.js';
import { parseDuration } from '../../src/clock/duration.js';
import { startSandbox } from '../../src/programmatic/start-sandbox.js';
import { TRADE_STATES } from '../../src/trades/trade.js';
import { type Receiver, startReceiver } from '../callbacks-receiver.js';
import { DEMO, ecomBody, errorOf, makeSandbox, p2pBody, type TestSandbox } from '../support.js';

// biome-ignore lint/suspicious/noExplicitAny: walks JSON of any shape
type Json = Record<string, any>;

const BASE = 'https://deposit-sandbox.test/openapi.json';
const DAY = 86_400_000;

let t: TestSandbox;
let doc: Json;
let receiver: Receiver;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

beforeAll(async () => {
  t = await makeSandbox({ clock: 'manual', callbackRetries: [] });
  receiver = await startReceiver();
  doc = (await (await t.app.request('/openapi.json')).json()) as Json;
  ajv.addSchema({ $id: BASE, components: doc['components'] });
});

afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const schemas = () => doc['components']['schemas'] as Record<string, Json>;

const compiled = new Map<string, ValidateFunction>();

/** Whether a schema of the document (inline, or with `#/components/...` refs) allows `value`. */
function allows(schema: Json, value: unknown): boolean {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(JSON.parse(key.replaceAll('"#/components/', `"${BASE}#/components/`)) as Json);
    compiled.set(key, validate);
  }
  return validate(value);
}

const property = (component: string, name: string) => schemas()[component]!['properties'][name] as Json;

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  t.app.request(path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });

async function createTrade(): Promise<string> {
  const res = await t.post('/api/v1/trades/deposit/create', p2pBody());
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe('the transition state', () => {
  it('is an enum of the states a trade can be moved to: each is accepted, every other value is refused', async () => {
    const state = property('TransitionRequest', 'state');
    expect(state['enum']).toEqual(['confirmed', 'canceled', 'expired']);
    for (const value of state['enum'] as string[]) {
      expect(allows(state, value)).toBe(true);
      const res = await post(`/_sandbox/trades/${await createTrade()}/transition`, { state: value });
      expect(res.status, value).toBe(200);
    }
    // Trade states no trade moves to: the schema leaves them out, the route refuses them whatever the trade's state.
    for (const value of TRADE_STATES.filter((s) => !(state['enum'] as string[]).includes(s))) {
      expect(allows(state, value), value).toBe(false);
      const res = await post(`/_sandbox/trades/${await createTrade()}/transition`, { state: value });
      expect(res.status, value).toBe(409);
    }
    for (const value of ['paid', 'CONFIRMED', '', 'confirmed ']) {
      expect(allows(state, value), value).toBe(false);
      const res = await post(`/_sandbox/trades/${await createTrade()}/transition`, { state: value });
      expect(res.status, value).toBe(422);
    }
  });
});

describe("check-callback's url", () => {
  const url = () => property('CheckCallbackRequest', 'url');
  const accepted = (value: string) => checkCallbackRequestSchema.safeParse({ url: value }).success;

  it('is a uri with an http(s) scheme and a host: what the schema allows the route accepts', async () => {
    expect(url()).toMatchObject({ type: 'string', format: 'uri', maxLength: 2048, pattern: expect.any(String) });
    const receiverUrl = `${receiver.url}/cb`;
    expect(allows(url(), receiverUrl)).toBe(true);
    const res = await post('/_sandbox/check-callback', { url: receiverUrl });
    expect(res.status, await res.clone().text()).toBe(200);
    for (const value of [
      'http://127.0.0.1:3000/deposit-callback',
      'HTTPS://Shop.Example/cb?x=1#f',
      'http://[::1]:65535/',
      'http://user:secret@shop.example',
      'https://shop.example:443',
      `https://shop.example/${'a'.repeat(2048 - 'https://shop.example/'.length)}`,
    ]) {
      expect(allows(url(), value), value).toBe(true);
      expect(accepted(value), value).toBe(true);
    }
    // Generated URLs (hosts, IPv4 and IPv6 addresses, ports, user info, queries, fragments).
    const generated = fc.webUrl({ withQueryParameters: true, withFragments: true, authoritySettings: { withIPv4: true, withIPv6: true, withUserInfo: true, withPort: true } });
    fc.assert(
      fc.property(generated, (value) => !allows(url(), value) || accepted(value)),
      { numRuns: 2_000 },
    );
  });

  it('what the schema forbids the route refuses', async () => {
    for (const value of [
      'ftp://shop.example/cb',
      'mailto:shop@example.com',
      'shop.example/cb',
      '/deposit-callback',
      'http://',
      'http://:8080/cb',
      'http://user@',
      'http://shop.example:65536/cb',
      'http://shop.example:1000000',
      `https://shop.example/${'a'.repeat(2048)}`,
    ]) {
      expect(allows(url(), value), value).toBe(false);
      const res = await post('/_sandbox/check-callback', { url: value });
      expect(res.status, value).toBe(422);
    }
  });
});

describe("the clock's by", () => {
  const by = () => property('AdvanceRequest', 'by');
  const pattern = () => new RegExp((by()['anyOf'] as Json[]).find((branch) => branch['type'] === 'string')!['pattern'] as string, 'u');
  const agree = (value: string) => expect(pattern().test(value), JSON.stringify(value)).toBe(parseDuration(value) !== undefined);

  const ACCEPTED = [
    '500ms',
    '10s',
    '1.5s',
    '.5h',
    '5m',
    '5M',
    '2 minutes',
    '2  Minutes',
    '1 Day',
    '3 weeks',
    '1yr',
    '2 hrs',
    '3 msecs',
    '1 millisecond',
    '250',
    '0',
    '-0s',
    '-.0',
    ' 10s ',
    '\t\n10s\r\n',
    '\u00a010s\ufeff',
    '\u200910s\u3000',
    '1'.repeat(100),
    `${'1'.repeat(98)}ms`,
    ` ${'1'.repeat(99)} `,
    '10м',
    '10 мин',
    '2 ч',
    '1 Д',
    '3  ДНЕЙ',
    '1.5 часа',
    '-0с',
    `${'1'.repeat(99)}м`,
  ];
  const REFUSED = [
    '',
    '   ',
    'soon',
    'ms',
    '-5s',
    '-0.1s',
    '1.',
    '1..5s',
    '+5s',
    '1e3',
    '10 s s',
    '10\ts',
    '10\u00a0s',
    '10 sec ago',
    '5 mins!',
    '0x10',
    '\u0663s',
    '１０s',
    '1'.repeat(101),
    `${'1'.repeat(99)}ms`,
    `${'1'.repeat(99)}мс`,
    '10 лет',
    '-5м',
    '10м ago',
    '10\u00a0мин',
    '5 минутa',
  ];

  it('has a pattern that accepts exactly what the duration parser accepts', () => {
    for (const value of ACCEPTED) expect(parseDuration(value), value).toBeDefined();
    for (const value of REFUSED) expect(parseDuration(value), value).toBeUndefined();
    for (const value of [...ACCEPTED, ...REFUSED]) agree(value);
    // Every UTF-16 code unit before, inside and after a duration, and alone.
    const re = pattern();
    for (let code = 0; code <= 0xffff; code++) {
      const char = String.fromCharCode(code);
      for (const value of [`${char}5s`, `5${char}s`, `5s${char}`, char, `5${char}`, `5 ${char}ин`, `5м${char}`]) {
        if (re.test(value) !== (parseDuration(value) !== undefined)) expect.fail(`${JSON.stringify(value)}: the pattern says ${re.test(value)}, the parser ${parseDuration(value)}`);
      }
    }
    // Strings built of the grammar's pieces, near its edges.
    const piece = fc.constantFrom(
      '0',
      '1',
      '9',
      '.',
      '-',
      '+',
      ' ',
      '\t',
      '\u00a0',
      'e',
      'x',
      'ms',
      'MS',
      'm',
      's',
      'S',
      'sec',
      'secs',
      'second',
      'seconds',
      'msec',
      'millisecond',
      'Milliseconds',
      'min',
      'mins',
      'minute',
      'h',
      'hr',
      'hrs',
      'hour',
      'HOURS',
      'd',
      'day',
      'days',
      'w',
      'week',
      'y',
      'yr',
      'yrs',
      'years',
      'м',
      'М',
      'мин',
      'минут',
      'с',
      'сек',
      'мс',
      'ч',
      'часа',
      'д',
      'дн',
      'дней',
      'лет',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (pieces) => pattern().test(pieces.join('')) === (parseDuration(pieces.join('')) !== undefined)),
      { numRuns: 20_000 },
    );
  });

  it('is a duration the route takes, or milliseconds up to 10 years; what the schema forbids is refused', async () => {
    const advance = (value: unknown) => post('/_sandbox/clock/advance', { by: value });
    for (const value of ['10s', ' 1 MIN ', '-0s', '0', 0, 1500, 3650 * DAY, '3650d', '10 мин', '2ч', '3650 дней']) {
      expect(allows(by(), value), JSON.stringify(value)).toBe(true);
      expect((await advance(value)).status, JSON.stringify(value)).toBe(200);
    }
    for (const value of ['-5s', 'soon', '1.', '', -1, 3650 * DAY + 1, true, null, '10 лет']) {
      expect(allows(by(), value), JSON.stringify(value)).toBe(false);
      expect((await advance(value)).status, JSON.stringify(value)).toBe(422);
    }
    // A duration string past 10 years matches the pattern (the parser's grammar); the description says it is refused.
    expect(by()['description']).toContain('3650d');
    expect((await advance('3651d')).status).toBe(422);
    expect((await advance('3651 д')).status).toBe(422);
  });

  it('scenario files have the same duration strings', () => {
    const after = schemas()['ScenarioFile']!['properties']['scenarios']['items']['properties']['timeline']['items']['properties']['after'] as Json;
    const string = (schema: Json) => (schema['anyOf'] as Json[]).find((branch) => branch['type'] === 'string');
    expect(string(after)).toEqual(string(by()));
  });
});

describe('PUT /_sandbox/scenarios', () => {
  const FILE =
    'scenarios:\n  - name: openapi-upload\n    description: Orders starting with openapi- are paid after a minute.\n    match:\n      order: "^openapi-"\n    timeline:\n      - after: 1m\n        state: confirmed\n';

  it('declares its YAML body: the scenario file, under application/yaml', async () => {
    const body = doc['paths']['/_sandbox/scenarios']['put']['requestBody'] as Json;
    expect(body['required']).toBe(true);
    expect(Object.keys(body['content'])).toEqual(['application/yaml']);
    const schema = body['content']['application/yaml']['schema'] as Json;
    expect(schema).toEqual({ $ref: '#/components/schemas/ScenarioFile' });
    const parsed = {
      scenarios: [{ name: 'openapi-upload', description: 'Orders starting with openapi- are paid after a minute.', match: { order: '^openapi-' }, timeline: [{ after: '1m', state: 'confirmed' }] }],
    };
    expect(allows(schema, parsed)).toBe(true);
    for (const type of ['application/yaml', 'text/plain']) {
      const res = await t.app.request('/_sandbox/scenarios', { method: 'PUT', headers: { 'Content-Type': type }, body: FILE });
      expect(res.status, type).toBe(200);
      expect(((await res.json()) as { added: string[] }).added).toEqual(['openapi-upload']);
    }
  });

  it('a file the schema forbids is refused', async () => {
    const schema = { $ref: '#/components/schemas/ScenarioFile' };
    for (const [yaml, parsed] of [
      ['scenarios: []\n', { scenarios: [] }],
      ['scenario:\n  - name: a\n    description: b\n', { scenario: [{ name: 'a', description: 'b' }] }],
      ['scenarios:\n  - name: has space\n    description: b\n', { scenarios: [{ name: 'has space', description: 'b' }] }],
      ['scenarios:\n  - name: late\n    description: b\n    delay: soon\n', { scenarios: [{ name: 'late', description: 'b', delay: 'soon' }] }],
    ] as const) {
      expect(allows(schema, parsed), yaml).toBe(false);
      const res = await t.app.request('/_sandbox/scenarios', { method: 'PUT', headers: { 'Content-Type': 'application/yaml' }, body: yaml });
      expect(res.status, yaml).toBe(422);
    }
  });
});

describe('media types', () => {
  it('every request and answer lists concrete media types (no ranges such as application/*+json)', () => {
    const types: string[] = [];
    const walk = (node: unknown): void => {
      if (node === null || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'content' && value && typeof value === 'object' && !Array.isArray(value)) types.push(...Object.keys(value));
        walk(value);
      }
    };
    walk(doc['paths']);
    expect(types.length).toBeGreaterThan(50);
    for (const type of new Set(types)) expect(type).toMatch(/^(application|text)\/[a-z0-9.+-]+$/);
  });

  it('a JSON body is read under the type it is listed under and under application/<name>+json, which the description names', async () => {
    const body = doc['paths']['/api/v1/trades/deposit/create']['post']['requestBody'] as Json;
    expect(Object.keys(body['content'])).toEqual(['application/json']);
    expect(body['description']).toContain('application/<name>+json');
    for (const type of ['application/json', 'application/vnd.api+json']) expect((await t.post('/api/v1/trades/deposit/create', p2pBody(), { 'Content-Type': type })).status, type).toBe(201);
    expect((await t.post('/api/v1/trades/deposit/create', p2pBody(), { 'Content-Type': 'text/plain' })).status).toBe(422);
  });

  it('the merchant routes, which read JSON whatever the Content-Type, say so', async () => {
    for (const path of ['/_sandbox/merchants', '/_sandbox/merchants/{id}/sign']) {
      const body = doc['paths'][path]['post']['requestBody'] as Json;
      expect(Object.keys(body['content']), path).toEqual(['application/json']);
      expect(body['description'], path).toContain('whatever the Content-Type');
    }
    const added = await t.app.request('/_sandbox/merchants', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{"name":"Shop of the document"}' });
    expect(added.status).toBe(201);
  });
});

describe('a method a path does not take', () => {
  /** A documented path with its parameters filled in. */
  const concrete = (template: string) => template.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'merchant' ? DEMO.id : '3f0c9a52-0d8e-4b4f-9a57-6f2b8f1f3c11'));

  it('is a 405 in the error envelope with Allow listing the methods the path takes, on every documented path, here and in a workspace', async () => {
    for (const [template, item] of Object.entries(doc['paths'] as Record<string, Json>)) {
      // The workspace list is the server's alone (docs/workspaces.md): under a prefix it is no route at all.
      for (const prefix of template === '/_sandbox/workspaces' ? [''] : ['', '/w/openapi-405']) {
        const documented = Object.keys(item).map((method) => method.toUpperCase());
        // DELETE /w/{name}/_sandbox/ removes the workspace (docs/workspaces.md); the document lists the routes at the root.
        if (prefix !== '' && template === '/_sandbox/') documented.push('DELETE');
        const allow = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'].filter((method) => documented.includes(method) || (method === 'HEAD' && documented.includes('GET'))).join(', ');
        const path = `${prefix}${concrete(template)}`;
        const res = await t.app.request(path, { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: '{}' });
        expect(res.status, `PATCH ${path}`).toBe(405);
        expect(res.headers.get('Allow'), `PATCH ${path}`).toBe(allow);
        expect(await errorOf(res), `PATCH ${path}`).toMatchObject({ status: 405, code: 'method_not_allowed', message: expect.stringContaining(allow) });
      }
    }
    const put = await t.app.request('/api/v1/trades/deposit/create', { method: 'PUT', headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token }, body: JSON.stringify(p2pBody()) });
    expect(put.status).toBe(405);
    expect(put.headers.get('Allow')).toBe('POST');
    const head = await t.app.request('/_sandbox/reset', { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(head.headers.get('Allow')).toBe('POST');
  });

  it('is told from an unknown path, which stays a 404', async () => {
    for (const [method, path] of [
      ['PATCH', '/nowhere'],
      ['GET', '/_sandbox/nothing-here'],
      ['DELETE', '/api/v1/trades'],
      ['PATCH', '/w/openapi-405/_sandbox/workspaces'],
    ] as const) {
      const res = await t.app.request(path, { method });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.get('Allow')).toBeNull();
      expect((await errorOf(res)).code).toBe('not_found');
    }
  });

  it('TRACE (which fetch cannot send) over a real connection is a 405 with Allow', async () => {
    const sandbox = await startSandbox();
    try {
      const { port } = new URL(sandbox.url);
      const answer = await new Promise<{ status: number; allow: string | undefined; body: string }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, method: 'TRACE', path: '/_sandbox/health', agent: false }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, allow: res.headers['allow'], body }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(answer.status).toBe(405);
      expect(answer.allow).toBe('GET, HEAD');
      expect(JSON.parse(answer.body)).toMatchObject({ error: { status: 405, code: 'method_not_allowed' } });
    } finally {
      await sandbox.close();
    }
  });

  it('the document says so', () => {
    expect(doc['info']['description']).toMatch(/405.*method_not_allowed.*Allow/);
  });
});

describe('links', () => {
  const operations = () =>
    new Map(
      Object.entries(doc['paths'] as Record<string, Json>).flatMap(([path, item]) =>
        Object.entries(item).map(([method, operation]) => [(operation as Json)['operationId'] as string, { path, method, operation: operation as Json }]),
      ),
    );

  /** A runtime expression of a link (`$response.body#/id`, `$request.body#/merchant`), evaluated. */
  function evaluate(expression: string, requestBody: Json, responseBody: Json): unknown {
    const match = /^\$(request|response)\.body#(\/.*)$/.exec(expression);
    if (!match) throw new Error(`not a body expression: ${expression}`);
    let value: unknown = match[1] === 'request' ? requestBody : responseBody;
    for (const key of match[2]!.slice(1).split('/')) value = (value as Json)[key.replaceAll('~1', '/').replaceAll('~0', '~')];
    return value;
  }

  it('lead from both create answers to get, transition and the payment page, naming each path parameter of an operation that exists', () => {
    const byId = operations();
    for (const path of ['/api/v1/trades/deposit/create', '/api/v1/trades/deposit/build']) {
      const links = doc['paths'][path]['post']['responses']['201']['links'] as Record<string, Json>;
      expect(
        Object.values(links)
          .map((link) => link['operationId'])
          .sort(),
        path,
      ).toEqual(['getTrade', 'paymentPage', 'transitionTrade']);
      for (const [name, link] of Object.entries(links)) {
        const target = byId.get(link['operationId'] as string);
        expect(target, `${path} link ${name}`).toBeDefined();
        const pathParameters = ((target!.operation['parameters'] ?? []) as Json[]).filter((p) => p['in'] === 'path').map((p) => p['name'] as string);
        expect(Object.keys(link['parameters'] as Json).sort(), `${path} link ${name}`).toEqual(pathParameters.sort());
      }
      expect(links['GetTrade']!['parameters']).toEqual({ merchant: '$request.body#/merchant', uuid: '$response.body#/id' });
    }
  });

  it('followed from a real create, each answers', async () => {
    const byId = operations();
    for (const [path, body] of [
      ['/api/v1/trades/deposit/create', p2pBody()],
      ['/api/v1/trades/deposit/build', ecomBody()],
    ] as const) {
      const created = await t.post(path, body);
      expect(created.status).toBe(201);
      const answer = (await created.json()) as Json;
      const links = doc['paths'][path]['post']['responses']['201']['links'] as Record<string, Json>;
      const target = (name: string) => {
        const link = links[name]!;
        const { path: template, method } = byId.get(link['operationId'] as string)!;
        const params = link['parameters'] as Record<string, string>;
        return { method, path: template.replace(/\{(\w+)\}/g, (_, key: string) => encodeURIComponent(String(evaluate(params[key]!, body, answer)))) };
      };

      const get = target('GetTrade');
      expect(get.method).toBe('get');
      const read = await t.get(get.path);
      expect(read.status, get.path).toBe(200);
      expect(((await read.json()) as Json)['id']).toBe(answer['id']);

      const page = target('PaymentPage');
      const opened = await t.app.request(page.path);
      expect(opened.status, page.path).toBe(200);
      expect(opened.headers.get('Content-Type')).toMatch(/^text\/html/);

      const move = target('TransitionTrade');
      expect(move.method).toBe('post');
      const moved = await post(move.path, { state: 'confirmed' });
      expect(moved.status, move.path).toBe(200);
      expect(((await moved.json()) as Json)['trade']['state']).toBe('confirmed');
    }
  });
});
