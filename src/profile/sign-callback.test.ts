import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { sign, verifyCallbackSignature } from '../auth/signature.js';
import { loadProfile } from './load-profile.js';
import type { Profile } from './profile-schema.js';
import { signCallback } from './sign-callback.js';
import { standardWebhooksKey } from './standard-webhooks-key.js';

const sandbox = loadProfile('sandbox');
const withCallbacks = (profile: Profile, signature: Profile['callbacks']['signature'], sandbox_headers = true): Profile => ({
  ...profile,
  callbacks: { ...profile.callbacks, signature, sandbox_headers },
});

const body = '{"id":"t-1","order":"o-1","merchant":"m-1","state":"confirmed","amount_cents":100,"amount_currency":"RUB","rate":92.5,"payment_data":{"url":"http://x/pay/t-1"}}';
const bodyArbitrary = fc.oneof(fc.json(), fc.string({ unit: 'binary' }));

describe('sandbox callbacks', () => {
  it("send today's headers, in the sender's order: X-Sandbox-Workspace, X-Signature, X-Sandbox-Event-Id, X-Sandbox-Attempt", () => {
    const headers = signCallback(sandbox, { secret: 'sandbox-secret-demo', body, eventId: 'cb_t-1_2', attempt: 3, at: 0, workspace: 'team-a' });
    expect(Object.entries(headers)).toEqual([
      ['X-Sandbox-Workspace', 'team-a'],
      ['X-Signature', sign('sandbox-secret-demo', body)],
      ['X-Sandbox-Event-Id', 'cb_t-1_2'],
      ['X-Sandbox-Attempt', '3'],
    ]);
    expect(Object.keys(signCallback(sandbox, { secret: 's', body, eventId: 'e', attempt: 1, at: 0 }))).toEqual(['X-Signature', 'X-Sandbox-Event-Id', 'X-Sandbox-Attempt']);
  });

  it('verify with verifyCallbackSignature of src/auth/signature.ts on random bodies and secrets', () => {
    fc.assert(
      fc.property(bodyArbitrary, fc.string({ minLength: 1 }), (raw, secret) => {
        const headers = signCallback(sandbox, { secret, body: raw, eventId: 'e', attempt: 1, at: 0 });
        expect(verifyCallbackSignature(secret, raw, headers['X-Signature'])).toBe(true);
      }),
      { seed: 46, numRuns: 200 },
    );
  });

  it('carry no X-Sandbox-* header when sandbox_headers is false', () => {
    const headers = signCallback(loadProfile('strict'), { secret: 's', body, eventId: 'e', attempt: 1, at: 0, workspace: 'w' });
    expect(Object.keys(headers)).toEqual(['X-Signature']);
  });
});

describe('Standard Webhooks callbacks', () => {
  const profile = loadProfile('standard-webhooks');

  it("reproduce the specification's published example", () => {
    const headers = signCallback(profile, { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', body: '{"test": 2432232314}', eventId: 'msg_p5jXN8AQM9LWM0D4loKWxJek', attempt: 1, at: 1614265330_000 });
    expect(headers['webhook-signature']).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    expect(headers['webhook-timestamp']).toBe('1614265330');
  });

  it('verify with the standardwebhooks package on random bodies, ids and secrets of either form', () => {
    fc.assert(
      fc.property(
        bodyArbitrary,
        fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
        fc.oneof(
          fc.string({ unit: 'grapheme', minLength: 1 }),
          fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => `whsec_${Buffer.from(bytes).toString('base64')}`),
        ),
        (raw, eventId, secret) => {
          const headers = signCallback(profile, { secret, body: raw, eventId, attempt: 1, at: Date.now() });
          expect(() => new Webhook(standardWebhooksKey(secret).key).verify(raw, headers, { jsonParse: false })).not.toThrow();
          expect(() => new Webhook(standardWebhooksKey(`${secret}x`).key).verify(raw, headers, { jsonParse: false })).toThrow();
        },
      ),
      { seed: 4646, numRuns: 200 },
    );
  });

  it('keep the id across attempts and take the timestamp of the attempt, in whole seconds', () => {
    const first = signCallback(profile, { secret: 's', body, eventId: 'cb_1', attempt: 1, at: 1_700_000_000_999 });
    const second = signCallback(profile, { secret: 's', body, eventId: 'cb_1', attempt: 2, at: 1_700_000_030_000 });
    expect(first['webhook-id']).toBe(second['webhook-id']);
    expect([first['webhook-timestamp'], second['webhook-timestamp']]).toEqual(['1700000000', '1700000030']);
    expect(first['X-Sandbox-Attempt']).toBe('1');
  });
});

describe('standardWebhooksKey', () => {
  it('takes a whsec_ secret as it is, and derives one from any other secret', () => {
    expect(standardWebhooksKey('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toEqual({ key: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', bytes: Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64') });
    expect(standardWebhooksKey('sandbox-secret-demo').key).toBe(`whsec_${Buffer.from('sandbox-secret-demo').toString('base64')}`);
    expect(standardWebhooksKey('whsec_not base64!').key).toBe(`whsec_${Buffer.from('whsec_not base64!').toString('base64')}`);
    expect(standardWebhooksKey('whsec_').bytes).toEqual(Buffer.from('whsec_'));
  });
});

describe('request-style callbacks', () => {
  it('sign the seven values of the Trade object in the document order, in requests.signature.header', () => {
    const profile = loadProfile('hmac-sha512-base64');
    const headers = signCallback(profile, { secret: 'k', body, eventId: 'e', attempt: 1, at: 0 });
    expect(headers['X-Signature']).toBe(createHmac('sha512', 'k').update('t-1::o-1::m-1::confirmed::100::RUB::92.5').digest('base64'));
  });

  it('use X-Signature when the profile sends request signatures in the token header', () => {
    const headers = signCallback(loadProfile('md5-colon'), { secret: 'k', body, eventId: 'e', attempt: 1, at: 0 });
    expect(headers['X-Signature']).toBe(createHash('md5').update('t-1:o-1:m-1:confirmed:100:RUB:92.5:k').digest('hex'));
    expect(Object.keys(headers)).toEqual(['X-Signature', 'X-Sandbox-Event-Id', 'X-Sandbox-Attempt']);
  });

  it('sign empty slots for a body that is not a JSON object', () => {
    const headers = signCallback(withCallbacks(sandbox, 'request-style'), { secret: 'k', body: '[1]', eventId: 'e', attempt: 1, at: 0 });
    expect(headers['X-Signature']).toBe(createHmac('sha256', 'k').update('::::::::::::').digest('hex'));
  });
});

describe('unsigned callbacks', () => {
  it('carry only the sandbox helpers, or nothing', () => {
    expect(signCallback(withCallbacks(sandbox, 'none'), { secret: 's', body, eventId: 'e', attempt: 2, at: 0 })).toEqual({ 'X-Sandbox-Event-Id': 'e', 'X-Sandbox-Attempt': '2' });
    expect(signCallback(withCallbacks(sandbox, 'none', false), { secret: 's', body, eventId: 'e', attempt: 2, at: 0, workspace: 'w' })).toEqual({});
  });
});
