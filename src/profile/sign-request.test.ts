import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AUTH_HEADER } from '../auth/authenticate.js';
import { SIGNATURE_ALGORITHM, sign, stringToSign } from '../auth/signature.js';
import { SIGNATURE_FIELDS, type SignedEndpoint } from '../auth/string-to-sign.js';
import { loadProfile } from './load-profile.js';
import { SECRET_PLACES, SIGNATURE_ALGORITHMS, SIGNATURE_ENCODINGS, type Profile } from './profile-schema.js';
import { describeSigning, signatureHeader, signRequest, verifyRequest } from './sign-request.js';

const sandbox = loadProfile('sandbox');
const ENDPOINTS = ['create', 'build', 'get'] as const;

/** A value a merchant's client may put in a signed field: text, numbers, null, absent, or something nested. */
const fieldValue = fc.oneof(
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.integer(),
  fc.double(),
  fc.constant(null),
  fc.constant(undefined),
  fc.boolean(),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.integer(), { maxKeys: 2 }),
);

const ALL_FIELDS = [...new Set([...SIGNATURE_FIELDS.create, 'customer', 'uuid'])];
const valuesArbitrary = fc.record(Object.fromEntries(ALL_FIELDS.map((field) => [field, fieldValue])), { requiredKeys: [] });
const secretArbitrary = fc.string({ unit: 'grapheme', minLength: 1 });

/** A profile that signs requests by these rules, the rest the sandbox's. */
function withSigning(signing: Profile['requests']['signature']): Profile {
  return { ...sandbox, requests: { ...sandbox.requests, signature: signing } };
}

const signingArbitrary = fc
  .record({
    algorithm: fc.constantFrom(...SIGNATURE_ALGORITHMS),
    separator: fc.string({ maxLength: 4 }),
    place: fc.constantFrom(...SECRET_PLACES.filter((place) => place !== 'key')),
    encoding: fc.constantFrom(...SIGNATURE_ENCODINGS),
  })
  .map(({ algorithm, separator, place, encoding }) => ({ algorithm, separator, encoding, secret: algorithm.startsWith('hmac-') ? ('key' as const) : place }));

/*
 * An independent verifier, written from the profile's documented rules (docs/provider-profile.md)
 * with node:crypto: the string to sign is built from the endpoint's field list here, not by
 * src/profile, and the comparison is its own.
 */
function independentVerify(signing: Profile['requests']['signature'], secret: string, endpoint: SignedEndpoint, values: Record<string, unknown>, received: string): boolean {
  const text = (value: unknown): string => {
    if (value === undefined || value === null) return '';
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return `${value}`;
    return JSON.stringify(value);
  };
  const slots: string[] = SIGNATURE_FIELDS[endpoint].map((field) => (field === 'cusotmer' ? text(values['cusotmer'] ?? values['customer']) : text(values[field])));
  if (signing.secret === 'last-slot') slots.push(secret);
  if (signing.secret === 'first-slot') slots.unshift(secret);
  const message = Buffer.from(slots.join(signing.separator), 'utf8');
  const bytes = signing.algorithm.startsWith('hmac-')
    ? createHmac(signing.algorithm === 'hmac-sha256' ? 'sha256' : 'sha512', Buffer.from(secret, 'utf8'))
        .update(message)
        .digest()
    : createHash(signing.algorithm).update(message).digest();
  const sent = signing.encoding === 'hex' ? Buffer.from(received.toLowerCase(), 'hex') : Buffer.from(received, 'base64');
  const canonical = signing.encoding === 'hex' ? /^[0-9a-fA-F]*$/.test(received) : sent.toString('base64') === received;
  return canonical && sent.length === bytes.length && timingSafeEqual(sent, bytes);
}

describe('the sandbox profile signs as the sandbox does today', () => {
  it("equals sign(secret, stringToSign(...)) of src/auth/signature.ts on random values, and verifies what today's verifier accepts", () => {
    fc.assert(
      fc.property(fc.constantFrom(...ENDPOINTS), valuesArbitrary, secretArbitrary, (endpoint, values, secret) => {
        const today = sign(secret, stringToSign(endpoint, values));
        expect(signRequest(sandbox, secret, endpoint, values)).toBe(today);
        expect(verifyRequest(sandbox, secret, endpoint, values, today.toUpperCase())).toBe(true);
        expect(describeSigning(sandbox, endpoint, values).string_to_sign).toBe(stringToSign(endpoint, values));
      }),
      { seed: 46, numRuns: 400 },
    );
  });

  it('names the algorithm and header as the 401 does today', () => {
    for (const endpoint of ENDPOINTS) {
      const described = describeSigning(sandbox, endpoint, {});
      expect(described.algorithm).toBe(SIGNATURE_ALGORITHM);
      expect(described.header).toBe(AUTH_HEADER[endpoint]);
      expect(signatureHeader(sandbox, endpoint)).toBe(AUTH_HEADER[endpoint]);
    }
  });

  it('matches the vectors pinned with openssl in src/auth/signature.test.ts', () => {
    const merchant = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51';
    expect(signRequest(sandbox, 'sandbox-secret-demo', 'get', { merchant, uuid: '3f2a4b1c-5d6e-4f70-8a9b-0c1d2e3f4a5b' })).toBe('79023940317975039deef5b850b859979a9eea265611847f71d5236cbf9762a5');
    expect(signRequest(sandbox, 'sandbox-secret-demo', 'create', { amount_cents: 31250, amount_currency: 'RUB', merchant, order: 'order-1002', type: 'nspk' })).toBe(
      '6a7c7865252dcf85aea0af6b55302c625a4b6080b8021b27b5ac25846a86bb1f',
    );
  });
});

describe('signRequest and verifyRequest', () => {
  it('agree with an independent verifier on random rules, values and secrets', () => {
    fc.assert(
      fc.property(signingArbitrary, fc.constantFrom(...ENDPOINTS), valuesArbitrary, secretArbitrary, (signing, endpoint, values, secret) => {
        const profile = withSigning(signing);
        const signature = signRequest(profile, secret, endpoint, values);
        expect(independentVerify(signing, secret, endpoint, values, signature)).toBe(true);
        expect(verifyRequest(profile, secret, endpoint, values, signature)).toBe(true);
        expect(verifyRequest(profile, `${secret}.`, endpoint, values, signature)).toBe(independentVerify(signing, `${secret}.`, endpoint, values, signature));
      }),
      { seed: 4646, numRuns: 400 },
    );
  });

  it('compares hex in either case and base64 exactly, ignoring surrounding whitespace', () => {
    const values = { merchant: 'm', uuid: 'u' };
    const hex = withSigning({ algorithm: 'sha512', separator: '|', secret: 'first-slot', encoding: 'hex' });
    const signature = signRequest(hex, 'k', 'get', values);
    expect(signature).toBe(createHash('sha512').update('k|m|u').digest('hex'));
    expect(verifyRequest(hex, 'k', 'get', values, ` ${signature.toUpperCase()}\n`)).toBe(true);
    const base64 = withSigning({ algorithm: 'hmac-sha512', separator: '::', secret: 'key', encoding: 'base64' });
    const b64 = signRequest(base64, 'k', 'get', values);
    expect(verifyRequest(base64, 'k', 'get', values, b64)).toBe(true);
    expect(verifyRequest(base64, 'k', 'get', values, b64.replace(/=+$/, ''))).toBe(false);
    expect(verifyRequest(base64, 'k', 'get', values, b64.toLowerCase())).toBe(false);
    expect(verifyRequest(base64, 'k', 'get', values, '')).toBe(false);
  });

  it('signs sha1 and md5 with the secret as a slot', () => {
    const values = { merchant: 'm', uuid: 'u' };
    expect(signRequest(withSigning({ algorithm: 'sha1', separator: '', secret: 'last-slot', encoding: 'hex' }), 'k', 'get', values)).toBe(createHash('sha1').update('muk').digest('hex'));
    expect(signRequest(withSigning({ algorithm: 'md5', separator: ';', secret: 'first-slot', encoding: 'base64' }), 'k', 'get', values)).toBe(createHash('md5').update('k;m;u').digest('base64'));
  });
});

describe('describeSigning', () => {
  it('shows the string to sign with the secret masked, the algorithm, where the secret goes and the header', () => {
    expect(describeSigning(loadProfile('md5-colon'), 'get', { merchant: 'm', uuid: 'u' })).toEqual({
      header: 'X-Token',
      algorithm: 'MD5, hex',
      key: "the merchant's secret as the last slot",
      string_to_sign: 'm:u:<secret>',
    });
    expect(describeSigning(loadProfile('hmac-sha512-base64'), 'create', { amount_cents: 100, merchant: 'm' })).toEqual({
      header: 'X-Signature',
      algorithm: 'HMAC-SHA512, base64',
      key: "the merchant's secret as the HMAC key",
      string_to_sign: '100::::::::m::::::',
    });
  });

  it('never holds the secret', () => {
    fc.assert(
      fc.property(signingArbitrary, valuesArbitrary, (signing, values) => {
        const secret = 'sEcReT-7f3a9c';
        const described = JSON.stringify(describeSigning(withSigning(signing), 'create', values));
        expect(described.includes(secret)).toBe(false);
      }),
      { seed: 7, numRuns: 100 },
    );
  });
});
