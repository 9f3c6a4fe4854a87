import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadProfile, parseProfile } from '../profile/load-profile.js';
import { acknowledgingAnswer } from './acknowledging-answer.js';
import { callbackHeaders, callbackSignatureHeader, describeCallbackSignature, wrongSecret } from './callback-headers.js';

const body = '{"id":"t-1","order":"o-1","merchant":"m-1","state":"confirmed","amount_cents":100,"amount_currency":"RUB","rate":92.5}';
const callback = { secret: 'sandbox-secret-demo', body, eventId: 'cb_t-1_1', attempt: 2, at: 1_767_225_600_000 };
const unsigned = parseProfile('name: unsigned\nextends: sandbox\ncallbacks:\n  signature: none\n');

describe('callbackHeaders', () => {
  it("sandbox: today's headers, in today's order; wrong = the HMAC with wrongSecret(); missing = without X-Signature", () => {
    const sandbox = loadProfile('sandbox');
    const hmac = (secret: string) => createHmac('sha256', secret).update(body).digest('hex');
    expect(Object.entries(callbackHeaders(sandbox, { ...callback, workspace: 'team-a' }))).toEqual([
      ['X-Sandbox-Workspace', 'team-a'],
      ['X-Signature', hmac('sandbox-secret-demo')],
      ['X-Sandbox-Event-Id', 'cb_t-1_1'],
      ['X-Sandbox-Attempt', '2'],
    ]);
    expect(callbackHeaders(sandbox, callback, 'wrong')['X-Signature']).toBe(hmac('sandbox-secret-demo:not-the-secret'));
    expect(wrongSecret('s')).toBe('s:not-the-secret');
    expect(Object.keys(callbackHeaders(sandbox, callback, 'missing'))).toEqual(['X-Sandbox-Event-Id', 'X-Sandbox-Attempt']);
  });

  it('standard-webhooks: missing leaves out webhook-signature only; wrong changes only the signature', () => {
    const profile = loadProfile('standard-webhooks');
    const valid = callbackHeaders(profile, callback);
    const wrong = callbackHeaders(profile, callback, 'wrong');
    expect(Object.keys(callbackHeaders(profile, callback, 'missing'))).toEqual(['webhook-id', 'webhook-timestamp', 'X-Sandbox-Event-Id', 'X-Sandbox-Attempt']);
    expect({ ...wrong, 'webhook-signature': valid['webhook-signature'] }).toEqual(valid);
    expect(wrong['webhook-signature']).not.toBe(valid['webhook-signature']);
  });

  it("request-style: the signature in the requests' header, or X-Signature", () => {
    expect(callbackSignatureHeader(loadProfile('hmac-sha512-base64'))).toBe('X-Signature');
    const custom = parseProfile('name: p\nextends: hmac-sha512-base64\nrequests:\n  signature:\n    header: X-Sign\n');
    expect(Object.keys(callbackHeaders(custom, callback))).toEqual(['X-Sign', 'X-Sandbox-Event-Id', 'X-Sandbox-Attempt']);
    expect(Object.keys(callbackHeaders(custom, callback, 'missing'))).toEqual(['X-Sandbox-Event-Id', 'X-Sandbox-Attempt']);
  });

  it('none: nothing to sign, spoil or leave out', () => {
    expect(callbackSignatureHeader(unsigned)).toBeUndefined();
    for (const signature of ['valid', 'wrong', 'missing'] as const) expect(Object.keys(callbackHeaders(unsigned, callback, signature))).toEqual(['X-Sandbox-Event-Id', 'X-Sandbox-Attempt']);
    expect(callbackHeaders(loadProfile('strict'), { ...callback, workspace: 'w' }, 'missing')).toEqual({});
  });
});

describe('describeCallbackSignature and acknowledgingAnswer', () => {
  it("say each scheme and rule in a receiver developer's words", () => {
    expect(describeCallbackSignature(loadProfile('sandbox'))).toEqual({ header: 'X-Signature', how: "hex HMAC-SHA256 of the raw body with the merchant's secret" });
    expect(describeCallbackSignature(loadProfile('md5-colon'))).toEqual({
      header: 'X-Signature',
      how: 'MD5, hex of the body\'s id, order, merchant, state, amount_cents, amount_currency, rate joined with ":", with the merchant\'s secret as the last value',
    });
    expect(describeCallbackSignature(loadProfile('standard-webhooks'))?.header).toBe('webhook-signature');
    expect(describeCallbackSignature(unsigned)).toBeUndefined();
    expect(['2xx', 'ok-text', 'code-zero'].map((rule) => acknowledgingAnswer(rule as '2xx'))).toEqual(['2xx', '2xx with the body OK', '2xx with the JSON {"code":0}']);
  });
});
