import { createHash, createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { acknowledges } from './acknowledges.js';
import { BUILTIN_PROFILE_NAMES, type BuiltinProfileName } from './builtin-profile-names.js';
import { BUILTIN_PROFILES, loadProfile } from './load-profile.js';
import { signCallback } from './sign-callback.js';
import { signatureHeader, signRequest, verifyRequest } from './sign-request.js';

/*
 * Test vectors of every built-in profile. The expected signatures are computed here, by code
 * written from the profiles' own comments with node:crypto, apart from src/profile: the string
 * to sign is spelled out slot by slot, not built by the code under test. Standard Webhooks
 * callbacks are also checked with the `standardwebhooks` package.
 */

const MERCHANT = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51';
const SECRET = 'sandbox-secret-demo';
const TRADE = '3f2a4b1c-5d6e-4f70-8a9b-0c1d2e3f4a5b';

/** Three requests, their values, and their slots in the document's order written out by hand. */
const REQUESTS = [
  {
    name: 'create, every field (customer spelling)',
    endpoint: 'create',
    values: {
      amount_cents: 31250,
      amount_currency: 'RUB',
      callback_url: 'https://shop.example/callbacks/deposit',
      customer: 'customer-42',
      merchant: MERCHANT,
      order: 'order-1001',
      return_url: 'https://shop.example/thanks',
      type: 'any_bank',
    },
    slots: ['31250', 'RUB', 'https://shop.example/callbacks/deposit', 'customer-42', MERCHANT, 'order-1001', 'https://shop.example/thanks', 'any_bank'],
  },
  {
    name: 'build, cusotmer spelling in Cyrillic, no callback_url',
    endpoint: 'build',
    values: { amount_cents: 100000, amount_currency: 'RUB', cusotmer: 'Иван Петров', merchant: MERCHANT, order: 'заказ-7', return_url: 'https://shop.example/thanks', type: 'ecom' },
    slots: ['100000', 'RUB', '', 'Иван Петров', MERCHANT, 'заказ-7', 'https://shop.example/thanks', 'ecom'],
  },
  {
    name: 'get',
    endpoint: 'get',
    values: { merchant: MERCHANT, uuid: TRADE },
    slots: [MERCHANT, TRADE],
  },
] as const;

/** Each built-in's request signature, from its file's comment, and the header it travels in. */
const REQUEST_RULES: Record<BuiltinProfileName, { sign: (slots: readonly string[], secret: string) => string; header: (endpoint: string) => string }> = {
  sandbox: { sign: (s, k) => createHmac('sha256', k).update(s.join('::')).digest('hex'), header: tokenHeader },
  'sha256-secret-last': {
    sign: (s, k) =>
      createHash('sha256')
        .update(`${s.join('::')}::${k}`)
        .digest('hex'),
    header: tokenHeader,
  },
  'hmac-sha512-base64': { sign: (s, k) => createHmac('sha512', k).update(s.join('::')).digest('base64'), header: () => 'X-Signature' },
  'md5-colon': {
    sign: (s, k) =>
      createHash('md5')
        .update(`${s.join(':')}:${k}`)
        .digest('hex'),
    header: tokenHeader,
  },
  'standard-webhooks': { sign: (s, k) => createHmac('sha256', k).update(s.join('::')).digest('hex'), header: tokenHeader },
  strict: { sign: (s, k) => createHmac('sha256', k).update(s.join('::')).digest('hex'), header: tokenHeader },
};

function tokenHeader(endpoint: string): string {
  return endpoint === 'get' ? 'X-Token' : 'X-Auth';
}

/** Three callback bodies as the sandbox sends them (the trade as get returns it), and their seven signed values. */
const CALLBACKS = [
  {
    body: `{"id":"${TRADE}","order":"order-1001","merchant":"${MERCHANT}","state":"confirmed","amount_cents":31250,"amount_currency":"RUB","rate":92.5,"payment_data":{"name":"Иван П.","number":"2202201234567890","bank_name":"Сбербанк","url":"http://127.0.0.1:4242/pay/${TRADE}"}}`,
    values: [TRADE, 'order-1001', MERCHANT, 'confirmed', '31250', 'RUB', '92.5'],
    eventId: `cb_${TRADE}_2`,
  },
  {
    body: `{"id":"${TRADE}","order":"заказ-7","merchant":"${MERCHANT}","state":"canceled","amount_cents":100,"amount_currency":"RUB","rate":91,"payment_data":{"name":"Анна С.","number":"+79001234567","bank_name":"Т-Банк","url":"http://127.0.0.1:4242/pay/${TRADE}"}}`,
    values: [TRADE, 'заказ-7', MERCHANT, 'canceled', '100', 'RUB', '91'],
    eventId: `cb_${TRADE}_1`,
  },
  {
    body: `{"id":"0b8e4c3d-0000-4f6e-8d59-3c1a2b9e6f70","order":"a:b::c","merchant":"${MERCHANT}","state":"expired","amount_cents":10000000000,"amount_currency":"RUB","rate":91.75,"payment_data":{"name":"Ольга К.","number":"4276380000000002","bank_name":"ВТБ","url":"http://127.0.0.1:4242/pay/x"}}`,
    values: ['0b8e4c3d-0000-4f6e-8d59-3c1a2b9e6f70', 'a:b::c', MERCHANT, 'expired', '10000000000', 'RUB', '91.75'],
    eventId: 'cb_0b8e4c3d-0000-4f6e-8d59-3c1a2b9e6f70_3',
  },
] as const;

const sandboxHmac = (body: string, secret: string) => createHmac('sha256', secret).update(body).digest('hex');
const webhookKey = (secret: string) => `whsec_${Buffer.from(secret).toString('base64')}`;

/** Each built-in's callback headers, from its file's comment. */
const CALLBACK_RULES: Record<BuiltinProfileName, (callback: (typeof CALLBACKS)[number], secret: string, at: number) => Record<string, string>> = {
  sandbox: (c, k) => ({ 'X-Signature': sandboxHmac(c.body, k), 'X-Sandbox-Event-Id': c.eventId, 'X-Sandbox-Attempt': '1' }),
  'sha256-secret-last': (c, k) => ({
    'X-Signature': createHash('sha256')
      .update(`${c.values.join('::')}::${k}`)
      .digest('hex'),
    'X-Sandbox-Event-Id': c.eventId,
    'X-Sandbox-Attempt': '1',
  }),
  'hmac-sha512-base64': (c, k) => ({ 'X-Signature': createHmac('sha512', k).update(c.values.join('::')).digest('base64'), 'X-Sandbox-Event-Id': c.eventId, 'X-Sandbox-Attempt': '1' }),
  'md5-colon': (c, k) => ({
    'X-Signature': createHash('md5')
      .update(`${c.values.join(':')}:${k}`)
      .digest('hex'),
    'X-Sandbox-Event-Id': c.eventId,
    'X-Sandbox-Attempt': '1',
  }),
  'standard-webhooks': (c, k, at) => {
    const timestamp = String(Math.floor(at / 1000));
    const key = Buffer.from(webhookKey(k).slice('whsec_'.length), 'base64');
    return {
      'webhook-id': c.eventId,
      'webhook-timestamp': timestamp,
      'webhook-signature': `v1,${createHmac('sha256', key).update(`${c.eventId}.${timestamp}.${c.body}`).digest('base64')}`,
      'X-Sandbox-Event-Id': c.eventId,
      'X-Sandbox-Attempt': '1',
    };
  },
  strict: (c, k) => ({ 'X-Signature': sandboxHmac(c.body, k) }),
};

/** Each built-in's acknowledgement: three answers that must count and three that must not. */
const ACKNOWLEDGED: Record<string, { yes: Array<[number, string]>; no: Array<[number, string]> }> = {
  '2xx': {
    yes: [
      [200, ''],
      [204, ''],
      [299, 'anything'],
    ],
    no: [
      [300, ''],
      [404, 'OK'],
      [500, '{"code":0}'],
    ],
  },
  'ok-text': {
    yes: [
      [200, 'OK'],
      [201, 'OK'],
      [204, 'OK'],
    ],
    no: [
      [200, 'ok'],
      [200, 'OK\n'],
      [500, 'OK'],
    ],
  },
  'code-zero': {
    yes: [
      [200, '{"code":0}'],
      [200, '{"code":0,"message":"ok"}'],
      [202, ' {"code": 0.0} '],
    ],
    no: [
      [200, '{"code":"0"}'],
      [200, 'OK'],
      [503, '{"code":0}'],
    ],
  },
};

const SECRETS = [SECRET, 'sandbox-secret-second', 'ключ с пробелом и ::'];

describe.each(BUILTIN_PROFILE_NAMES)('the built-in profile %s', (name) => {
  const profile = loadProfile(name);
  const rule = REQUEST_RULES[name];

  it.each(REQUESTS.flatMap((request) => SECRETS.map((secret) => [request.name, secret, request] as const)))('signs %s with secret %j byte for byte as computed apart', (_name, secret, request) => {
    const expected = rule.sign(request.slots, secret);
    expect(signRequest(profile, secret, request.endpoint, request.values)).toBe(expected);
    expect(signatureHeader(profile, request.endpoint)).toBe(rule.header(request.endpoint));
    expect(verifyRequest(profile, secret, request.endpoint, request.values, expected)).toBe(true);
    expect(verifyRequest(profile, `${secret}x`, request.endpoint, request.values, expected)).toBe(false);
  });

  it.each(CALLBACKS.map((callback, index) => [index + 1, callback] as const))('signs callback %i byte for byte as computed apart', (_index, callback) => {
    const at = Date.now();
    const headers = signCallback(profile, { secret: SECRET, body: callback.body, eventId: callback.eventId, attempt: 1, at });
    expect(headers).toEqual(CALLBACK_RULES[name](callback, SECRET, at));
    if (profile.callbacks.signature === 'standard-webhooks') {
      expect(new Webhook(webhookKey(SECRET)).verify(callback.body, headers)).toEqual(JSON.parse(callback.body));
    }
  });

  it('acknowledges callbacks by its rule', () => {
    const answers = ACKNOWLEDGED[profile.callbacks.acknowledge];
    expect(answers).toBeDefined();
    for (const [status, body] of answers?.yes ?? []) expect(acknowledges(profile.callbacks.acknowledge, status, body), `${status} ${body}`).toEqual({ acknowledged: true });
    for (const [status, body] of answers?.no ?? []) expect(acknowledges(profile.callbacks.acknowledge, status, body).acknowledged, `${status} ${body}`).toBe(false);
  });
});

describe('the built-ins', () => {
  it('are the files of profiles/, each named as its file and saying the scheme it models in a comment header', () => {
    const files = readdirSync(BUILTIN_PROFILES).filter((file) => file.endsWith('.yaml'));
    expect(files.map((file) => file.replace(/\.yaml$/, '')).sort()).toEqual([...BUILTIN_PROFILE_NAMES].sort());
    for (const name of BUILTIN_PROFILE_NAMES) {
      const lines = readFileSync(`${BUILTIN_PROFILES}${name}.yaml`, 'utf8').split('\n');
      expect(lines[0], name).toBe('# yaml-language-server: $schema=./profile.schema.json');
      expect(lines.slice(1, 4).filter((line) => line.startsWith('# ')).length, `${name}: a comment says the scheme`).toBeGreaterThan(0);
      expect(loadProfile(name).name).toBe(name);
    }
  });

  it('match what the sandbox does today where the issue fixes it', () => {
    const sandbox = loadProfile('sandbox');
    expect(sandbox.callbacks.retries).toEqual([1_000, 5_000, 30_000, 120_000, 600_000]);
    expect(sandbox.states.intermediate).toEqual([]);
    expect(sandbox.requests.signature.header).toBeUndefined();
    const strict = loadProfile('strict');
    expect({ ...strict, name: 'sandbox' }).toEqual({
      ...sandbox,
      requests: { ...sandbox.requests, duplicate_order_names_trade: false },
      callbacks: { ...sandbox.callbacks, sandbox_headers: false },
    });
    const webhooks = loadProfile('standard-webhooks');
    expect(webhooks.requests).toEqual(sandbox.requests);
  });
});
