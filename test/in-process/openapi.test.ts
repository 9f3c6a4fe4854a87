/**
 * GET /openapi.json: a valid OpenAPI 3.1 document (checked with an OpenAPI validator) that
 * lists every provider and admin route, and whose response schemas match what each route
 * really answers (checked with a JSON Schema validator, through app.request()).
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, expectTypeOf } from 'vitest';
import { it, test } from '../temp-folder.js';
import type { z } from 'zod';
import type { ErrorEnvelope } from '../../src/http/errors.js';
import type { errorEnvelopeSchema } from '../../src/openapi/error-envelope.js';
import { ADMIN_BODY_LIMIT, NO_BODY_LIMIT } from '../../src/http/body.js';
import { openApiDocument } from '../../src/openapi/openapi-document.js';
import { startReceiver, type Receiver } from '../callbacks-receiver.js';
import { conformanceError } from '../openapi-conformance.js';
import { DEMO, ecomBody, makeSandbox, p2pBody, signatureOf, type TestSandbox } from '../support.js';

// biome-ignore lint/suspicious/noExplicitAny: walks JSON of any shape
type Json = Record<string, any>;

const ADMIN_TOKEN = 'openapi-admin-token';

let t: TestSandbox;
let doc: Json;
let receiver: Receiver;
let scenarios: string;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

test.beforeAll(async ({ fileFolder }) => {
  // A scenario with a callback delay, so the scenario listing has a duration in it.
  scenarios = fileFolder;
  writeFileSync(
    join(scenarios, 'slow.yaml'),
    'scenarios:\n  - name: slow-callback\n    description: The callback waits 90 seconds.\n    match:\n      order: "^slow-"\n    callbacks:\n      delay: 90s\n',
  );
  t = await makeSandbox({ adminToken: ADMIN_TOKEN, clock: 'manual', callbackRetries: [], scenarios });
  receiver = await startReceiver();
  const res = await t.app.request('/openapi.json');
  doc = (await res.json()) as Json;
  ajv.addSchema({ $id: 'https://deposit-sandbox.test/openapi.json', components: doc['components'] });
});

afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

/** The documented operation a request path hits. */
function operationFor(method: string, path: string): { template: string; operation: Json } {
  const pathname = path.split('?')[0]!;
  for (const [template, item] of Object.entries(doc['paths'] as Record<string, Json>)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (pattern.test(pathname) && item[method.toLowerCase()]) return { template, operation: item[method.toLowerCase()] as Json };
  }
  throw new Error(`${method} ${pathname} is not in /openapi.json`);
}

/** Validates a value against a schema of the document (a $ref or an inline schema). */
function check(schema: Json, value: unknown): string[] {
  const validate = ajv.compile({ $id: `https://deposit-sandbox.test/check-${Math.random()}`, ...rebase(schema) });
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

/** Points `#/components/...` refs at the document added to ajv. */
function rebase(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"https://deposit-sandbox.test/openapi.json#/components/')) as Json;
}

const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };

async function call(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const init: RequestInit = { method, headers: { ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  return t.app.request(path, init);
}

/** Sends a request, and checks its answer against the documented response of its status. */
async function conforms(method: 'GET' | 'POST', path: string, expected: number, body?: unknown, headers: Record<string, string> = {}): Promise<Json> {
  const { template, operation } = operationFor(method, path);
  if (body !== undefined && expected < 300 && typeof body === 'object') {
    expect(check(operation['requestBody']['content']['application/json']['schema'] as Json, body), `${method} ${template} request body`).toEqual([]);
  }
  const res = await call(method, path, body, headers);
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text.slice(0, 300)}`).toBe(expected);
  const documented = operation['responses'][String(res.status)] as Json | undefined;
  expect(documented, `${method} ${template} does not document ${res.status}`).toBeDefined();
  expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
  const value = JSON.parse(text) as Json;
  expect(check(documented!['content']['application/json']['schema'] as Json, value), `${method} ${template} ${res.status} answer`).toEqual([]);
  return value;
}

describe('the document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('is served without the admin token, as JSON, with the sandbox address as its server', async () => {
    const res = await t.app.request('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/json; charset=UTF-8');
    expect(doc).toEqual(openApiDocument({ serverUrl: t.sandbox.publicUrl }));
    expect(doc['servers']).toEqual([{ url: t.sandbox.publicUrl }]);
  });

  it('lists every provider and admin route the app serves, and nothing it does not', () => {
    const served = new Set(
      t.app.routes
        .filter((r) => ['GET', 'POST', 'PUT', 'DELETE'].includes(r.method) && /^\/(api|_sandbox|pay)\/|^\/openapi\.json$|^\/go-live\b/.test(r.path))
        .filter((r) => !r.path.startsWith('/_sandbox/assets/') && !r.path.startsWith('/go-live/assets/'))
        .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`),
    );
    const documented = new Set(Object.entries(doc['paths'] as Record<string, Json>).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`)));
    expect([...documented].sort()).toEqual([...served].sort());
    expect(documented.size).toBe(43); // 3 provider endpoints, 31 admin and workspace routes (state, fork, resume, session.har, go-live and the report's clearing among them), 6 payment page routes, the dashboard, the go-live page, this document
  });

  it('declares what the routes accept: empty filters (each schema admits "") and JSON bodies under application/json, which also reads application/<name>+json', async () => {
    for (const path of ['/_sandbox/trades', '/_sandbox/callbacks']) {
      for (const parameter of doc['paths'][path]['get']['parameters'] as Json[]) {
        expect(check(parameter['schema'] as Json, ''), `${path} ${parameter['name']}=`).toEqual([]);
        const res = await t.app.request(`${path}?${parameter['name']}=`, { headers: admin });
        expect(res.status, `${path}?${parameter['name']}=`).toBe(200);
      }
    }
    // A value outside the enum is still refused, as the document says.
    expect(check(doc['paths']['/_sandbox/trades']['get']['parameters'][1]['schema'] as Json, 'paid')).not.toEqual([]);
    expect((await t.app.request('/_sandbox/trades?state=paid', { headers: admin })).status).toBe(422);

    for (const [path, method] of [
      ['/api/v1/trades/deposit/create', 'post'],
      ['/api/v1/trades/deposit/build', 'post'],
      ['/_sandbox/clock/advance', 'post'],
    ] as const) {
      const body = doc['paths'][path][method]['requestBody'] as Json;
      expect(Object.keys(body['content']), path).toEqual(['application/json']);
      expect(body['description']).toContain('application/<name>+json');
    }
    const created = await t.app.request('/api/v1/trades/deposit/create', {
      method: 'POST',
      headers: { 'Content-Type': 'application/vnd.api+json; charset=utf-8', 'X-Auth': DEMO.token },
      body: JSON.stringify(p2pBody()),
    });
    expect(created.status).toBe(201);
  });

  it('describes the request bodies with the schemas the routes validate with, as zod reads them', () => {
    const create = doc['components']['schemas']['CreateRequest'] as Json;
    expect(create['required']).toEqual(['merchant', 'order', 'amount_cents', 'amount_currency', 'type']);
    expect(create['properties']['type']).toEqual({ type: 'string', enum: ['any_bank', 'nspk'] });
    expect(create['properties']).toHaveProperty('cusotmer');
    expect(doc['components']['schemas']['BuildRequest']['properties']['type']).toEqual({ type: 'string', const: 'ecom' });
    expect(doc['components']['schemas']['AdvanceRequest']['properties']['by']['anyOf']).toMatchObject([
      { type: 'string', pattern: expect.any(String) },
      { type: 'number', minimum: 0, maximum: 3650 * 86_400_000 },
    ]);
    expect(doc['paths']['/_sandbox/trades']['get']['parameters'].map((p: Json) => p['name'])).toEqual(['merchant', 'state', 'order', 'limit', 'offset']);
    // Every admin filter accepts an empty value (`?state=` counts as absent), and says so.
    for (const path of ['/_sandbox/trades', '/_sandbox/callbacks']) {
      for (const parameter of doc['paths'][path]['get']['parameters'] as Json[]) expect(parameter, `${path} ${parameter['name']}`).toMatchObject({ in: 'query', allowEmptyValue: true });
    }
    expect(doc['paths']['/_sandbox/trades']['get']['parameters'][1]['schema']).toEqual({ type: 'string', enum: ['created', 'ecom', 'confirmed', 'canceled', 'expired', ''] });
    expect(create['properties']['merchant']['format']).toBe('uuid');
    // Optional URLs: an http(s) uri, or null (which means absent).
    const url = {
      anyOf: [{ type: 'string', maxLength: 2048, format: 'uri', pattern: expect.stringMatching(/^\^\[Hh\]\[Tt\]\[Tt\]\[Pp\]\[Ss\]\?:\/\//) }, { type: 'null' }],
      description: expect.any(String),
    };
    expect(create['properties']['callback_url']).toEqual(url);
    expect(create['properties']['return_url']).toEqual(url);
    expect(doc['paths']['/api/v1/trades/{merchant}/{uuid}']['get']['parameters'].map((p: Json) => p['schema'])).toEqual([
      { type: 'string', format: 'uuid' },
      { type: 'string', format: 'uuid' },
    ]);
    expect(doc['paths']['/api/v1/trades/deposit/build']['post']['responses']['201']['content']['application/json']['schema']).toEqual({ $ref: '#/components/schemas/EcomTrade' });
    expect(JSON.stringify(doc['components']['schemas']['Trade'])).not.toContain('anyOf');
  });

  it('has the three security schemes, and each operation the right one', () => {
    expect(doc['components']['securitySchemes']).toMatchObject({
      XAuth: { type: 'apiKey', in: 'header', name: 'X-Auth' },
      XToken: { type: 'apiKey', in: 'header', name: 'X-Token' },
      AdminToken: { type: 'http', scheme: 'bearer' },
    });
    expect(doc['paths']['/api/v1/trades/deposit/create']['post']['security']).toEqual([{ XAuth: [] }]);
    expect(doc['paths']['/api/v1/trades/{merchant}/{uuid}']['get']['security']).toEqual([{ XToken: [] }]);
    expect(doc['paths']['/_sandbox/reset']['post']['security']).toEqual([{ AdminToken: [] }, {}]);
  });

  it('has an error envelope schema of the same type as ErrorEnvelope in src/errors.ts', () => {
    expectTypeOf<z.output<typeof errorEnvelopeSchema>>().toEqualTypeOf<ErrorEnvelope>();
    expect(doc['components']['schemas']['ErrorEnvelope']['required']).toEqual(['error']);
  });
});

describe('real answers match the document', () => {
  it('(the check itself refuses an answer the document does not allow)', () => {
    const payment_data = { name: 'n', number: '4111', bank_name: 'b', url: 'u' };
    const trade = { id: '3f0c9a52-0d8e-4b4f-9a57-6f2b8f1f3c11', order: 'b', merchant: DEMO.id, state: 'created', amount_cents: 1, amount_currency: 'RUB', rate: 92.5, payment_data };
    expect(check({ $ref: '#/components/schemas/Trade' }, trade)).toEqual([]);
    expect(check({ $ref: '#/components/schemas/EcomTrade' }, { ...trade, payment_data: { url: 'u' } })).toEqual([]);
    // Each answer has its own payment_data: four fields on create and get, only url on build.
    expect(check({ $ref: '#/components/schemas/Trade' }, { ...trade, payment_data: { url: 'u' } })).not.toEqual([]);
    expect(check({ $ref: '#/components/schemas/EcomTrade' }, trade)).not.toEqual([]);
    expect(check({ $ref: '#/components/schemas/Trade' }, { ...trade, id: 'a' })).not.toEqual([]);
    expect(check({ $ref: '#/components/schemas/Trade' }, { ...trade, extra: 1 })).not.toEqual([]);
    expect(check({ $ref: '#/components/schemas/Trade' }, { ...trade, state: 'paid' })).not.toEqual([]);
    expect(check({ $ref: '#/components/schemas/ErrorEnvelope' }, { error: { status: 401, code: 'x', message: 'y' } })).not.toEqual([]);
  });

  it('(the check every app.request() of the suites runs refuses what the document does not allow)', () => {
    const trade = { id: '3f0c9a52-0d8e-4b4f-9a57-6f2b8f1f3c11', order: 'o', merchant: DEMO.id, state: 'created', amount_cents: 1, amount_currency: 'RUB', rate: 92.5 };
    const get = `/api/v1/trades/${DEMO.id}/${trade.id}`;
    const full = JSON.stringify({ ...trade, payment_data: { name: 'n', number: '4111', bank_name: 'b', url: 'u' } });
    expect(conformanceError('GET', get, 200, 'application/json', full)).toBeUndefined();
    expect(conformanceError('GET', get, 200, 'application/json', JSON.stringify({ ...trade, payment_data: { url: 'u' } }))).toMatch(/does not allow/);
    expect(conformanceError('GET', get, 409, 'application/json', '{}')).toMatch(/a status \/openapi\.json does not list/);
    expect(conformanceError('GET', get, 200, 'text/html', full)).toMatch(/says application\/json/);
    expect(conformanceError('GET', '/pay/x', 200, 'application/json', '{}')).toMatch(/says text\/html/);
    expect(conformanceError('GET', '/nowhere', 200, 'application/json', '{}')).toMatch(/does not list it/);
    expect(conformanceError('GET', '/nowhere', 404, 'application/json', '{"error":{}}')).toMatch(/does not allow/);
  });

  it('provider endpoints: 201, 200 and their errors', async () => {
    const trade = await conforms('POST', '/api/v1/trades/deposit/create', 201, p2pBody({ customer: 'c-1', callback_url: `${receiver.url}/cb` }), { 'X-Auth': DEMO.token });
    const ecom = await conforms('POST', '/api/v1/trades/deposit/build', 201, ecomBody(), { 'X-Auth': DEMO.token });
    expect(Object.keys(ecom['payment_data'] as Json)).toEqual(['url']);
    await conforms('POST', '/api/v1/trades/deposit/create', 401, p2pBody(), { 'X-Auth': 'f'.repeat(64) });
    await conforms('POST', '/api/v1/trades/deposit/create', 401, p2pBody(), {});
    await conforms('POST', '/api/v1/trades/deposit/create', 422, p2pBody({ amount_cents: 312.5 }), { 'X-Auth': DEMO.token });
    await conforms('POST', '/api/v1/trades/deposit/build', 422, '{"merchant":', { 'X-Auth': DEMO.token });
    await conforms('POST', '/api/v1/trades/deposit/build', 413, JSON.stringify(ecomBody({ order: 'x'.repeat(70_000) })), { 'X-Auth': DEMO.token });
    const path = `/api/v1/trades/${DEMO.id}/${trade['id'] as string}`;
    await conforms('GET', path, 200, undefined, { 'X-Token': DEMO.token });
    await conforms('GET', path, 200, undefined, { 'X-Token': signatureOf('get', { merchant: DEMO.id, uuid: trade['id'] }) });
    await conforms('GET', path, 401, undefined, {});
    await conforms('GET', `/api/v1/trades/${DEMO.id}/3f0c9a52-0d8e-4b4f-9a57-6f2b8f1f3c11`, 404, undefined, { 'X-Token': DEMO.token });
    await conforms('GET', path, 403, undefined, { 'X-Token': DEMO.token, Host: 'rebound.example' });
  });

  it('admin routes: every success status and the errors they document', async () => {
    const trade = await conforms('POST', '/api/v1/trades/deposit/create', 201, p2pBody({ callback_url: `${receiver.url}/cb`, order: `sbx-confirm-${Date.now()}` }), { 'X-Auth': DEMO.token });
    const id = trade['id'] as string;

    const health = await conforms('GET', '/_sandbox/health', 200, undefined, admin);
    expect(Object.keys(health)).toEqual(['status', 'trades', 'auth', 'clock', 'store', 'create_delays', 'rss_mb']);
    expect(await conforms('GET', '/_sandbox/health', 200)).toEqual({ status: 'ok' });

    await conforms('GET', '/_sandbox/trades?state=created&limit=5', 200, undefined, admin);
    await conforms('GET', '/_sandbox/trades?limit=0', 422, undefined, admin);
    await conforms('GET', '/_sandbox/trades', 401);
    await conforms('GET', `/_sandbox/trades/${id}`, 200, undefined, admin); // with a pending timeline job
    await conforms('GET', '/_sandbox/trades/nope', 404, undefined, admin);

    await conforms('GET', '/_sandbox/clock', 200, undefined, admin);
    await conforms('POST', '/_sandbox/clock/advance', 200, { by: '5s' }, admin); // the scenario confirms it; a callback goes out
    await conforms('POST', '/_sandbox/clock/advance', 422, { by: 'soon' }, admin);
    await conforms('POST', '/_sandbox/clock/advance', 413, JSON.stringify({ by: `${'1'.repeat(ADMIN_BODY_LIMIT + 1)}ms` }), admin);

    const detail = await conforms('GET', `/_sandbox/trades/${id}`, 200, undefined, admin);
    expect(detail['callbacks']).toHaveLength(1);
    expect(detail['callbacks'][0]['attempts']).toHaveLength(1);
    const event = detail['callbacks'][0]['id'] as string;

    await conforms('POST', `/_sandbox/trades/${id}/transition`, 409, { state: 'canceled' }, admin);
    const other = await conforms('POST', '/api/v1/trades/deposit/create', 201, p2pBody(), { 'X-Auth': DEMO.token });
    await conforms('POST', `/_sandbox/trades/${other['id'] as string}/transition`, 422, { state: 'paid' }, admin);
    await conforms('POST', `/_sandbox/trades/${other['id'] as string}/transition`, 200, { state: 'canceled', note: 'openapi' }, admin);
    await conforms('POST', '/_sandbox/trades/nope/transition', 404, { state: 'canceled' }, admin);
    await conforms('POST', `/_sandbox/trades/${id}/transition`, 403, { state: 'canceled' }, { ...admin, Origin: 'https://evil.example' });

    await conforms('GET', '/_sandbox/callbacks?status=delivered', 200, undefined, admin);
    await conforms('GET', '/_sandbox/callbacks?status=lost', 422, undefined, admin);
    await conforms('GET', `/_sandbox/callbacks/${event}`, 200, undefined, admin);
    await conforms('GET', '/_sandbox/callbacks/nope', 404, undefined, admin);
    await conforms('POST', `/_sandbox/callbacks/${event}/replay`, 202, undefined, admin);
    await conforms('POST', '/_sandbox/callbacks/nope/replay', 404, undefined, admin);

    const listed = await conforms('GET', '/_sandbox/scenarios', 200, undefined, admin);
    expect((listed['scenarios'] as Json[]).find((s) => s['name'] === 'slow-callback')?.['callbacks']).toEqual({ delay: 90_000 });

    const report = await conforms('POST', '/_sandbox/check-callback', 200, { url: `${receiver.url}/cb`, merchant: DEMO.id }, admin);
    expect(report['cases']).toHaveLength(5);
    await conforms('POST', '/_sandbox/check-callback', 422, { url: 'ftp://shop.test/cb' }, admin);
    await conforms('POST', '/_sandbox/check-callback', 401, { url: `${receiver.url}/cb` });

    await conforms('POST', '/_sandbox/reset', 200, undefined, admin);
    await conforms('POST', '/_sandbox/reset', 401);
    // A route that takes no body refuses a large one; every such route documents the 413.
    await conforms('POST', '/_sandbox/reset', 413, JSON.stringify({ pad: 'x'.repeat(NO_BODY_LIMIT) }), admin);
    await conforms('POST', `/_sandbox/callbacks/${event}/replay`, 413, JSON.stringify({ pad: 'x'.repeat(NO_BODY_LIMIT) }), admin);
  });
});
