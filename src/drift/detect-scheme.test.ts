import { describe, expect, it } from 'vitest';
import { AUTH_HEADER } from '../auth/authenticate.js';
import { BUILTIN_PROFILE_NAMES } from '../profile/builtin-profile-names.js';
import { loadProfile } from '../profile/load-profile.js';
import { signCallback } from '../profile/sign-callback.js';
import { signatureHeader, signRequest } from '../profile/sign-request.js';
import { detectCallbackScheme, detectRequestScheme } from './detect-scheme.js';
import { readCapture } from './read-capture.js';

const SECRET = 'sandbox-secret-demo';
const MERCHANT = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51';
const verified = (detection: ReturnType<typeof detectRequestScheme>) => detection.tried.filter((tried) => tried.verified).flatMap((tried) => tried.profiles);

/** A captured request as raw HTTP text, as a proxy saves it. */
const raw = (method: string, path: string, headers: Record<string, string>, body = '') =>
  `${method} ${path} HTTP/1.1\r\nHost: provider.example\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n${body}`;

describe('detectRequestScheme', () => {
  it.each(BUILTIN_PROFILE_NAMES)('names %s among the profiles that sign a create, and a get, as it does', (name) => {
    const profile = loadProfile(name);
    const body = { merchant: MERCHANT, order: 'o-1', amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank', callback_url: 'https://shop.example/cb' };
    const create = raw(
      'POST',
      '/api/v1/trades/deposit/create',
      { 'Content-Type': 'application/json', [AUTH_HEADER.create]: 'token-or-signature', [signatureHeader(profile, 'create')]: signRequest(profile, SECRET, 'create', body) },
      JSON.stringify(body),
    );
    const detection = detectRequestScheme(readCapture(create, 'create.http'), SECRET);
    expect(detection.endpoint).toBe('create');
    expect(verified(detection)).toContain(name);
    const get = raw('GET', `https://provider.example/base/api/v1/trades/${MERCHANT}/t-1`, {
      [signatureHeader(profile, 'get')]: signRequest(profile, SECRET, 'get', { merchant: MERCHANT, uuid: 't-1' }),
    });
    expect(verified(detectRequestScheme(readCapture(get, 'get.http'), SECRET))).toContain(name);
  });

  it('says what it tried when none verifies, and refuses a request to another path', () => {
    const detection = detectRequestScheme(readCapture(raw('GET', `/api/v1/trades/${MERCHANT}/t-1`, { 'X-Token': 'a-token' }), 'get.http'), SECRET);
    expect(verified(detection)).toEqual([]);
    expect(detection.tried.map((tried) => tried.why)).toEqual(['X-Token is not this signature', 'X-Token is not this signature', 'no X-Signature header', 'X-Token is not this signature']);
    expect(detection.notes[0]).toContain("If X-Token holds the merchant's token");
    expect(() => detectRequestScheme(readCapture(raw('POST', '/callbacks', {}, '{}'), 'x.http'), SECRET)).toThrow('is none of the three endpoints');
  });
});

describe('detectCallbackScheme', () => {
  const body = JSON.stringify({ id: 't-1', order: 'o-1', merchant: MERCHANT, state: 'confirmed', amount_cents: 31250, amount_currency: 'RUB', rate: 92.5, payment_data: { url: 'https://p/x' } });
  const callback = (name: string, text = body) =>
    raw(
      'POST',
      '/deposit-callback',
      { 'Content-Type': 'application/json', ...signCallback(loadProfile(name), { secret: SECRET, body, eventId: 'cb_t-1_1', attempt: 1, at: 1_767_225_600_000 }) },
      text,
    );

  it.each(BUILTIN_PROFILE_NAMES)('names %s among the profiles whose callbacks are signed as this one', (name) => {
    expect(verified(detectCallbackScheme(readCapture(callback(name), 'cb.http'), SECRET))).toContain(name);
  });

  it('takes off a trailing newline an editor added, and says so; an unsigned callback is none', () => {
    const detection = detectCallbackScheme(readCapture(callback('standard-webhooks', `${body}\n`), 'cb.http'), SECRET);
    expect(verified(detection)).toEqual(['standard-webhooks']);
    expect(detection.notes[0]).toContain('newline at the end of the body');
    expect(
      detectCallbackScheme(readCapture(raw('POST', '/cb', { 'Content-Type': 'application/json' }, body), 'cb.http'), SECRET)
        .tried.filter((t) => t.verified)
        .map((t) => t.name),
    ).toEqual(['none']);
    expect(verified(detectCallbackScheme(readCapture(callback('sandbox'), 'cb.http'), 'another-secret'))).toEqual([]);
  });
});
