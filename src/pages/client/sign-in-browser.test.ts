import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILTIN_PROFILE_NAMES } from '../../profile/builtin-profile-names.js';
import { loadProfile } from '../../profile/load-profile.js';
import { SIGNATURE_ALGORITHMS, type Profile } from '../../profile/profile-schema.js';
import { signRequest } from '../../profile/sign-request.js';
import { signInBrowser } from './sign-in-browser.js';

/** A profile of `sandbox` with another signing rule. */
const withSigning = (signing: Profile['requests']['signature']): Profile => {
  const sandbox = loadProfile('sandbox');
  return { ...sandbox, requests: { ...sandbox.requests, signature: signing } };
};

const values = fc.record(
  {
    amount_cents: fc.oneof(fc.integer({ min: 1, max: 10 ** 9 }), fc.double({ noNaN: true, noDefaultInfinity: true })),
    amount_currency: fc.string(),
    callback_url: fc.option(fc.webUrl(), { nil: undefined }),
    customer: fc.option(fc.string({ unit: 'grapheme' }), { nil: null }),
    merchant: fc.uuid(),
    order: fc.string({ unit: 'grapheme', maxLength: 40 }),
    type: fc.constantFrom('any_bank', 'nspk', 'ecom'),
  },
  { requiredKeys: ['merchant', 'order'] },
);

/**
 * The dashboard signs in the browser (WebCrypto, and md5.ts for MD5) what the server checks with
 * node:crypto: the same signature for every built-in and every algorithm, encoding and secret
 * place, on random values and secrets.
 */
describe('signInBrowser', () => {
  it.each(BUILTIN_PROFILE_NAMES)('signs as signRequest does under %s', async (name) => {
    const profile = loadProfile(name);
    const body = { merchant: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51', order: 'qa-1', amount_cents: 31250, amount_currency: 'RUB', type: 'nspk', customer: 'кто-то' };
    for (const endpoint of ['create', 'build'] as const) {
      expect(await signInBrowser(profile.requests.signature, 'sandbox-secret-demo', endpoint, body)).toBe(signRequest(profile, 'sandbox-secret-demo', endpoint, body));
    }
    const get = { merchant: body.merchant, uuid: '3f0c9a52-0d8e-4b4f-9a57-6f2b8f1f3c11' };
    expect(await signInBrowser(profile.requests.signature, 'sandbox-secret-demo', 'get', get)).toBe(signRequest(profile, 'sandbox-secret-demo', 'get', get));
  });

  it('agrees with signRequest on random values, secrets and signing rules', async () => {
    const signing = fc
      .record({
        algorithm: fc.constantFrom(...SIGNATURE_ALGORITHMS),
        separator: fc.string({ maxLength: 16 }),
        first: fc.boolean(),
        encoding: fc.constantFrom('hex' as const, 'base64' as const),
      })
      .map(({ algorithm, separator, first, encoding }) => ({
        algorithm,
        separator,
        secret: algorithm.startsWith('hmac-') ? ('key' as const) : first ? ('first-slot' as const) : ('last-slot' as const),
        encoding,
      }));
    await fc.assert(
      fc.asyncProperty(signing, values, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 80 }), async (rule, body, secret) => {
        expect(await signInBrowser(rule, secret, 'create', body)).toBe(signRequest(withSigning(rule), secret, 'create', body));
      }),
      { numRuns: 200 },
    );
  });
});
