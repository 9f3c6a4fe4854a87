import type { Profile } from '../profile/profile-schema.js';
import { CALLBACK_SIGNATURE_HEADER, signCallback, type CallbackToSign } from '../profile/sign-callback.js';
import { CALLBACK_SIGNATURE_FIELDS } from '../profile/signature-slots.js';
import { signingLabel } from '../profile/sign-slots.js';

/** What a callback's signature header holds: the right signature, one made with a wrong secret, or none at all. */
export type CallbackSignature = 'valid' | 'wrong' | 'missing';

/** The secret a deliberately wrong signature is made with: never the merchant's. */
export const wrongSecret = (secret: string): string => `${secret}:not-the-secret`;

/** The header that carries a callback's signature under the profile; undefined under `none`. */
export function callbackSignatureHeader(profile: Profile): string | undefined {
  switch (profile.callbacks.signature) {
    case 'sandbox':
      return CALLBACK_SIGNATURE_HEADER;
    case 'request-style':
      return profile.requests.signature.header ?? CALLBACK_SIGNATURE_HEADER;
    case 'standard-webhooks':
      return 'webhook-signature';
    case 'none':
      return undefined;
  }
}

/**
 * The headers of one callback request under the profile (signCallback(), in its order), with a
 * valid signature, one made with a wrong secret (wrongSecret()), or without the signature header
 * (Standard Webhooks keeps webhook-id and webhook-timestamp). Under `none` there is no
 * signature, so the three are the same headers.
 *
 * @example
 * callbackHeaders(loadProfile('sandbox'), { secret, body, eventId: 'cb_t_1', attempt: 1, at: clock.now() }, 'wrong')
 * // { 'X-Signature': <HMAC with the wrong secret>, 'X-Sandbox-Event-Id': 'cb_t_1', 'X-Sandbox-Attempt': '1' }
 */
export function callbackHeaders(profile: Profile, callback: CallbackToSign, signature: CallbackSignature = 'valid'): Record<string, string> {
  if (signature === 'wrong') return signCallback(profile, { ...callback, secret: wrongSecret(callback.secret) });
  const headers = signCallback(profile, callback);
  const header = signature === 'missing' ? callbackSignatureHeader(profile) : undefined;
  if (header !== undefined) delete headers[header];
  return headers;
}

/**
 * How the profile signs callbacks, in the words of advice to a receiver's developer: the header
 * and what it holds. Under `sandbox` these are the words the sandbox has always used.
 *
 * @example
 * describeCallbackSignature(loadProfile('sandbox'))
 * // { header: 'X-Signature', how: "hex HMAC-SHA256 of the raw body with the merchant's secret" }
 */
export function describeCallbackSignature(profile: Profile): { header: string; how: string } | undefined {
  const header = callbackSignatureHeader(profile);
  if (header === undefined) return undefined;
  switch (profile.callbacks.signature) {
    case 'request-style': {
      const signing = profile.requests.signature;
      const secret = signing.secret === 'key' ? "keyed with the merchant's secret" : `with the merchant's secret as the ${signing.secret === 'last-slot' ? 'last' : 'first'} value`;
      return { header, how: `${signingLabel(signing)} of the body's ${CALLBACK_SIGNATURE_FIELDS.join(', ')} joined with ${JSON.stringify(signing.separator)}, ${secret}` };
    }
    case 'standard-webhooks':
      return { header, how: "Standard Webhooks v1: base64 HMAC-SHA256 of webhook-id.webhook-timestamp.body, keyed with the merchant's whsec_ key" };
    default:
      return { header, how: "hex HMAC-SHA256 of the raw body with the merchant's secret" };
  }
}
