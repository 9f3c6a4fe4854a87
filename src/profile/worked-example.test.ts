import { describe, expect, it } from 'vitest';
import { acknowledges } from './acknowledges.js';
import { parseProfile } from './load-profile.js';
import { signCallback } from './sign-callback.js';
import { describeSigning, signRequest } from './sign-request.js';

// The worked example of docs/provider-profile.md: a provider's manual written as a profile, then
// checked against the examples the manual gives.

/** The manual: requests signed with HMAC-SHA512, base64, in X-Signature; webhooks by Standard Webhooks; answer {"code":0}. */
const PROFILE = `
name: my-provider
extends: sandbox
requests:
  signature:
    algorithm: hmac-sha512
    encoding: base64
    header: X-Signature
callbacks:
  signature: standard-webhooks
  acknowledge: code-zero
`;

const profile = parseProfile(PROFILE, 'my-provider.yaml');

describe('the worked example', () => {
  it("reproduces the Standard Webhooks specification's published example byte for byte", () => {
    const headers = signCallback(profile, {
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      body: '{"test": 2432232314}',
      eventId: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      attempt: 1,
      at: 1614265330 * 1000,
    });
    expect(headers['webhook-signature']).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('signs a get request as openssl does, and says what it signs', () => {
    const values = { merchant: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51', uuid: '3f2a4b1c-5d6e-4f70-8a9b-0c1d2e3f4a5b' };
    expect(describeSigning(profile, 'get', values)).toEqual({
      header: 'X-Signature',
      algorithm: 'HMAC-SHA512, base64',
      key: "the merchant's secret as the HMAC key",
      string_to_sign: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51::3f2a4b1c-5d6e-4f70-8a9b-0c1d2e3f4a5b',
    });
    // printf '%s' '<string to sign>' | openssl dgst -sha512 -hmac 'sandbox-secret-demo' -binary | base64
    expect(signRequest(profile, 'sandbox-secret-demo', 'get', values)).toBe('Dl79KdsUqNX12e+w1S9XigDbFYzMhANR+Lwq5rmiWXfqYR3ra6iuU+jEhAqBmZY5PMKC6t5Ck1M7n4YDLKeMAQ==');
  });

  it('counts a callback as delivered only with {"code":0}', () => {
    expect(acknowledges(profile.callbacks.acknowledge, 200, '{"code":0}')).toEqual({ acknowledged: true });
    expect(acknowledges(profile.callbacks.acknowledge, 200, 'OK').acknowledged).toBe(false);
  });
});
