import { AUTH_HEADER } from '../auth/authenticate.js';
import { safeEqual } from '../auth/signature.js';
import type { SignedEndpoint } from '../auth/string-to-sign.js';
import type { Profile } from './profile-schema.js';
import { signatureSlots } from '../auth/string-to-sign.js';
import { joinSlots, SECRET_MASK, signingLabel, signSlots } from './sign-slots.js';

/** What a profile's request signature is made of, for diagnostics: never the secret. */
export interface SigningDescription {
  /** Where the signature travels. */
  header: string;
  /** `HMAC-SHA512, base64`. */
  algorithm: string;
  /** Where the merchant's secret goes, in words. */
  key: string;
  /** The string the signature is computed over, the secret (when it is a slot) shown as `<secret>`. */
  string_to_sign: string;
}

/**
 * The signature of a provider request under a profile: the values of the endpoint's signature
 * parameters in the document's order, joined with the profile's separator (the secret one more
 * slot for plain hashes), hashed and encoded as the profile says. Under `sandbox` it equals
 * sign(secret, stringToSign(endpoint, values)) of src/auth/signature.ts.
 *
 * @example
 * const profile = loadProfile('hmac-sha512-base64');
 * const signature = signRequest(profile, 'sandbox-secret-demo', 'get', { merchant: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51', uuid: tradeId });
 * // send it in X-Signature (signatureHeader(profile, 'get')), the token in X-Token
 */
export function signRequest(profile: Profile, secret: string, endpoint: SignedEndpoint, values: Readonly<Record<string, unknown>>): string {
  return signSlots(profile.requests.signature, signatureSlots(endpoint, values), secret);
}

/**
 * True when `received` is the request's signature under the profile, compared in constant
 * time: hex in either case, base64 exactly; surrounding whitespace is ignored.
 *
 * @example
 * verifyRequest(profile, merchant.secret, 'get', { merchant: merchant.id, uuid }, request.header('X-Signature') ?? '')
 */
export function verifyRequest(profile: Profile, secret: string, endpoint: SignedEndpoint, values: Readonly<Record<string, unknown>>, received: string): boolean {
  const expected = signRequest(profile, secret, endpoint, values);
  const sent = received.trim();
  return safeEqual(expected, profile.requests.signature.encoding === 'hex' ? sent.toLowerCase() : sent);
}

/**
 * The header a request's signature travels in: the profile's `requests.signature.header`, or
 * the endpoint's token header (X-Auth on create and build, X-Token on get).
 *
 * @example
 * signatureHeader(loadProfile('sandbox'), 'get') // 'X-Token'
 */
export function signatureHeader(profile: Profile, endpoint: SignedEndpoint): string {
  return profile.requests.signature.header ?? AUTH_HEADER[endpoint];
}

/**
 * What the profile signs for this request, for a 401 that says why a signature did not match:
 * the header, the algorithm, where the secret goes and the string to sign with the secret masked.
 *
 * @example
 * describeSigning(loadProfile('md5-colon'), 'get', { merchant: 'm', uuid: 'u' })
 * // { header: 'X-Token', algorithm: 'MD5, hex', key: "the merchant's secret as the last slot", string_to_sign: 'm:u:<secret>' }
 */
export function describeSigning(profile: Profile, endpoint: SignedEndpoint, values: Readonly<Record<string, unknown>>): SigningDescription {
  const signing = profile.requests.signature;
  return {
    header: signatureHeader(profile, endpoint),
    algorithm: signingLabel(signing),
    key: signing.secret === 'key' ? "the merchant's secret as the HMAC key" : `the merchant's secret as the ${signing.secret === 'last-slot' ? 'last' : 'first'} slot`,
    string_to_sign: joinSlots(signing, signatureSlots(endpoint, values), SECRET_MASK),
  };
}
