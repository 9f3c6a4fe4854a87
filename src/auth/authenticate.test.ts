import { describe, expect, it } from 'vitest';
import { DEMO, SECOND } from '../../test/support.js';
import { refusalError } from '../http/refusal-error.js';
import type { SandboxError } from '../http/errors.js';
import type { Merchant } from '../merchants/fixtures.js';
import { Refusal } from '../refusals/refusal.js';
import { loadFixtures, MerchantDirectory } from '../merchants/fixtures.js';
import { AUTH_HEADER, authenticate, signatureFor, type AuthMode, type AuthRequest } from './authenticate.js';
import { sign } from './signature.js';

const merchants = new MerchantDirectory(loadFixtures());
const values = { amount_cents: 100, amount_currency: 'RUB', merchant: DEMO.id, order: 'o-1', type: 'any_bank' };

function request(mode: AuthMode, headers: Record<string, string>, overrides: Partial<AuthRequest> = {}): AuthRequest {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { mode, endpoint: 'create', header: (name) => lower[name.toLowerCase()], merchantId: DEMO.id, values, ...overrides };
}

/** The refusal, as the HTTP layer renders it (the status its kind gets). */
function failure(run: () => Merchant | Refusal): SandboxError {
  const result = run();
  if (result instanceof Refusal) return refusalError(result);
  throw new Error(`expected a refusal; got merchant ${result.id}`);
}

function ok(result: Merchant | Refusal): Merchant {
  if (result instanceof Refusal) throw new Error(`expected the merchant; refused: ${result.message}`);
  return result;
}

describe('authenticate', () => {
  it('reads X-Auth on create and build, X-Token on get', () => {
    expect(AUTH_HEADER).toEqual({ create: 'X-Auth', build: 'X-Auth', get: 'X-Token' });
  });

  it('returns the merchant for its token (token, either) and its signature (signature, either)', () => {
    const signature = signatureFor(merchants.get(DEMO.id)!, 'create', values);
    expect(signature).toBe(sign(DEMO.secret, `100::RUB::::::${DEMO.id}::o-1::::any_bank`));
    for (const mode of ['token', 'either'] as const) expect(ok(authenticate(merchants, request(mode, { 'X-Auth': DEMO.token }))).id).toBe(DEMO.id);
    for (const mode of ['signature', 'either'] as const) {
      expect(ok(authenticate(merchants, request(mode, { 'X-Auth': signature }))).id).toBe(DEMO.id);
      expect(ok(authenticate(merchants, request(mode, { 'X-Auth': signature.toUpperCase() }))).id).toBe(DEMO.id);
    }
  });

  it('finds the merchant whatever the case of its id', () => {
    expect(ok(authenticate(merchants, request('token', { 'X-Auth': DEMO.token }, { merchantId: DEMO.id.toUpperCase() }))).id).toBe(DEMO.id);
  });

  it('off accepts anything, but still needs a known merchant', () => {
    expect(ok(authenticate(merchants, request('off', {}))).id).toBe(DEMO.id);
    expect(failure(() => authenticate(merchants, request('off', {}, { merchantId: '11111111-1111-4111-8111-111111111111' }))).status).toBe(401);
  });

  it('a missing or malformed body merchant on create is a 422 on the merchant field', () => {
    for (const merchantId of [undefined, 'shop', 42]) {
      const error = failure(() => authenticate(merchants, request('either', { 'X-Auth': DEMO.token }, { merchantId })));
      expect(error.status).toBe(422);
      expect(error.details[0]?.field).toBe('merchant');
    }
  });

  it('a malformed path merchant on get is a 401 unknown_merchant', () => {
    const error = failure(() => authenticate(merchants, request('either', { 'X-Token': DEMO.token }, { endpoint: 'get', merchantId: 'shop' })));
    expect([error.status, error.code]).toEqual([401, 'unknown_merchant']);
  });

  it('the missing header is reported before the merchant', () => {
    const error = failure(() => authenticate(merchants, request('token', {}, { merchantId: undefined })));
    expect([error.status, error.code]).toEqual([401, 'missing_auth_header']);
  });

  it('the other header name is a wrong_auth_header that names the right one', () => {
    const error = failure(() => authenticate(merchants, request('either', { 'X-Auth': DEMO.token }, { endpoint: 'get', values: { merchant: DEMO.id, uuid: 'u' } })));
    expect(error.code).toBe('wrong_auth_header');
    expect(error.message).toContain('reads the X-Token header');
  });

  it('a token of another merchant names its owner, except in signature mode', () => {
    const either = failure(() => authenticate(merchants, request('either', { 'X-Auth': SECOND.token })));
    expect(either.message).toContain(`holds the token of merchant ${SECOND.id}`);
    const signature = failure(() => authenticate(merchants, request('signature', { 'X-Auth': SECOND.token })));
    expect(signature.code).toBe('signature_mismatch');
  });

  it('a signature mismatch carries the debug block and never the secret', () => {
    const error = failure(() => authenticate(merchants, request('signature', { 'X-Auth': DEMO.secret })));
    expect(error.extra.signature).toEqual({
      header: 'X-Auth',
      algorithm: 'HMAC-SHA256, hex',
      string_to_sign: `100::RUB::::::${DEMO.id}::o-1::::any_bank`,
      received: '(a merchant secret, not shown)',
    });
    expect(JSON.stringify(error.toJSON())).not.toContain(DEMO.secret);
    expect(error.message).toContain('Never send the secret');
  });

  it('a long wrong value is shortened in the debug block', () => {
    const error = failure(() => authenticate(merchants, request('either', { 'X-Auth': 'x'.repeat(200) })));
    expect(error.extra.signature?.received).toBe(`${'x'.repeat(77)}...`);
  });
});
