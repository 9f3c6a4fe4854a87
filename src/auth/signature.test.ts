import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEMO, SECOND } from '../../test/support.js';
import { SIGNATURE_FIELDS, sign, stringToSign, verifyCallbackSignature, verifySignature } from './signature.js';

/*
 * Test vectors. Each expected hex was computed once outside the sandbox with
 *   printf '%s' "<string to sign>" | openssl dgst -sha256 -hmac "<secret>"
 * and is hard-coded here, so these tests pin the wire format, not the implementation.
 */
const VECTORS = [
  {
    name: 'create, every field present (customer spelling)',
    endpoint: 'create',
    values: {
      amount_cents: 31250,
      amount_currency: 'RUB',
      callback_url: 'https://shop.example/callbacks/deposit',
      customer: 'customer-42',
      merchant: DEMO.id,
      order: 'order-1001',
      return_url: 'https://shop.example/thanks',
      type: 'any_bank',
    },
    secret: DEMO.secret,
    string: `31250::RUB::https://shop.example/callbacks/deposit::customer-42::${DEMO.id}::order-1001::https://shop.example/thanks::any_bank`,
    hex: 'e0868e2bda73093a3f6e8ce9e647abd07f3ad08c764fadac8c29670ac2034692',
  },
  {
    name: 'create, optional fields absent (empty slots)',
    endpoint: 'create',
    values: { amount_cents: 31250, amount_currency: 'RUB', merchant: DEMO.id, order: 'order-1002', type: 'nspk' },
    secret: DEMO.secret,
    string: `31250::RUB::::::${DEMO.id}::order-1002::::nspk`,
    hex: '6a7c7865252dcf85aea0af6b55302c625a4b6080b8021b27b5ac25846a86bb1f',
  },
  {
    name: 'build, cusotmer spelling, no callback_url',
    endpoint: 'build',
    values: { amount_cents: 100000, amount_currency: 'RUB', cusotmer: 'payer@example.com', merchant: DEMO.id, order: 'order-1003', return_url: 'https://shop.example/thanks', type: 'ecom' },
    secret: DEMO.secret,
    string: `100000::RUB::::payer@example.com::${DEMO.id}::order-1003::https://shop.example/thanks::ecom`,
    hex: '5c304db570ea3bbd4ef65fb4cbaa51cf9cc5e6cc7bb76db7f84a0b0f2ecb2831',
  },
  {
    name: 'get',
    endpoint: 'get',
    values: { merchant: DEMO.id, uuid: '3f2a4b1c-5d6e-4f70-8a9b-0c1d2e3f4a5b' },
    secret: DEMO.secret,
    string: `${DEMO.id}::3f2a4b1c-5d6e-4f70-8a9b-0c1d2e3f4a5b`,
    hex: '79023940317975039deef5b850b859979a9eea265611847f71d5236cbf9762a5',
  },
  {
    name: 'create, second merchant secret',
    endpoint: 'create',
    values: { amount_cents: 500, amount_currency: 'RUB', merchant: SECOND.id, order: 'order-1001', type: 'any_bank' },
    secret: SECOND.secret,
    string: `500::RUB::::::${SECOND.id}::order-1001::::any_bank`,
    hex: '70ca011dee4324f468a91236db1405fad3f8140ddb8fc089905c3d123386f534',
  },
] as const;

describe('signature test vectors', () => {
  it.each(VECTORS)('$name: fixed inputs -> fixed string to sign -> fixed hex', ({ endpoint, values, secret, string, hex }) => {
    expect(stringToSign(endpoint, values)).toBe(string);
    expect(sign(secret, string)).toBe(hex);
    expect(verifySignature(secret, string, hex)).toBe(true);
    expect(verifySignature(secret, string, hex.toUpperCase())).toBe(true);
  });

  it('the cusotmer slot is the same whichever spelling carries the value', () => {
    const base = { amount_cents: 1, amount_currency: 'RUB', merchant: DEMO.id, order: 'o', type: 'any_bank' };
    const a = stringToSign('create', { ...base, customer: 'c-1' });
    expect(stringToSign('create', { ...base, cusotmer: 'c-1' })).toBe(a);
    expect(stringToSign('create', { ...base, customer: 'c-1', cusotmer: 'c-1' })).toBe(a);
    expect(a).toBe(`1::RUB::::c-1::${DEMO.id}::o::::any_bank`);
  });
});

describe('stringToSign', () => {
  it('follows the document order of the parameters', () => {
    expect(SIGNATURE_FIELDS.create).toEqual(['amount_cents', 'amount_currency', 'callback_url', 'cusotmer', 'merchant', 'order', 'return_url', 'type']);
    expect(SIGNATURE_FIELDS.build).toEqual(SIGNATURE_FIELDS.create);
    expect(SIGNATURE_FIELDS.get).toEqual(['merchant', 'uuid']);
  });

  it('an absent, undefined or null field is an empty slot; other fields are ignored', () => {
    expect(stringToSign('get', { merchant: 'm' })).toBe('m::');
    expect(stringToSign('get', { merchant: null, uuid: undefined })).toBe('::');
    expect(stringToSign('get', { merchant: 'm', uuid: 'u', extra: 'x' })).toBe('m::u');
  });

  it('numbers are written as JSON writes them', () => {
    expect(stringToSign('create', { amount_cents: 312 }).split('::')[0]).toBe('312');
  });
});

describe('verifySignature', () => {
  const [vector] = VECTORS;
  it('refuses another secret, another string, and non-hex', () => {
    expect(verifySignature(SECOND.secret, vector.string, vector.hex)).toBe(false);
    expect(verifySignature(vector.secret, `${vector.string}x`, vector.hex)).toBe(false);
    expect(verifySignature(vector.secret, vector.string, 'not hex')).toBe(false);
    expect(verifySignature(vector.secret, vector.string, '')).toBe(false);
  });
});

describe('verifyCallbackSignature', () => {
  it('checks X-Signature as hex HMAC-SHA256 of the raw body', () => {
    const body = '{"id":"x","state":"confirmed"}';
    const signature = sign(DEMO.secret, body);
    expect(verifyCallbackSignature(DEMO.secret, body, signature)).toBe(true);
    expect(verifyCallbackSignature(DEMO.secret, new TextEncoder().encode(body), signature.toUpperCase())).toBe(true);
    expect(verifyCallbackSignature(DEMO.secret, `${body} `, signature)).toBe(false);
    expect(verifyCallbackSignature(DEMO.secret, body, undefined)).toBe(false);
    expect(verifyCallbackSignature(DEMO.secret, body, null)).toBe(false);
  });

  it('signs bytes as they are, so a body that is not valid UTF-8 does not verify as its decoded copy', () => {
    const damaged = Uint8Array.from([0x7b, 0xff, 0x7d]); // "{", an invalid byte, "}"
    const ofDecodedCopy = sign(DEMO.secret, Buffer.from(damaged).toString('utf8'));
    expect(verifyCallbackSignature(DEMO.secret, damaged, ofDecodedCopy)).toBe(false);
    expect(verifyCallbackSignature(DEMO.secret, damaged, createHmac('sha256', DEMO.secret).update(damaged).digest('hex'))).toBe(true);
  });
});
