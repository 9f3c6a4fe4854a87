import { SANDBOX_SCHEMES, type SignatureScheme } from '../auth/signature-scheme.js';
import type { SignedEndpoint } from '../auth/string-to-sign.js';
import type { Profile } from './profile-schema.js';
import { describeSigning, signatureHeader, verifyRequest } from './sign-request.js';
import type { RequestSigning } from './sign-slots.js';

/** Digest sizes in bytes, for telling a signature from a token by its form. */
const DIGEST_BYTES: Record<RequestSigning['algorithm'], number> = {
  'hmac-sha256': 32,
  'hmac-sha512': 64,
  sha256: 32,
  sha512: 64,
  sha1: 20,
  md5: 16,
};

const schemes = new WeakMap<Profile, Record<SignedEndpoint, SignatureScheme>>();

/** True when the profile signs requests exactly as the sandbox does (then its own scheme, messages and /openapi.json apply). */
export function signsLikeSandbox(signing: RequestSigning): boolean {
  return signing.algorithm === 'hmac-sha256' && signing.separator === '::' && signing.secret === 'key' && signing.encoding === 'hex' && signing.header === undefined;
}

/**
 * How authentication checks a request's signature under a profile: where it travels, how it is
 * made, and how a 401 describes it. The `sandbox` profile (and any profile that signs the same
 * way) gets the sandbox's own scheme, so its answers stay as they were.
 *
 * @example
 * authenticate(merchants, { ..., scheme: requestScheme(sandbox.profile, 'create') })
 */
export function requestScheme(profile: Profile, endpoint: SignedEndpoint): SignatureScheme {
  let byEndpoint = schemes.get(profile);
  if (!byEndpoint) {
    byEndpoint = signsLikeSandbox(profile.requests.signature)
      ? SANDBOX_SCHEMES
      : { create: profileScheme(profile, 'create'), build: profileScheme(profile, 'build'), get: profileScheme(profile, 'get') };
    schemes.set(profile, byEndpoint);
  }
  return byEndpoint[endpoint];
}

function profileScheme(profile: Profile, endpoint: SignedEndpoint): SignatureScheme {
  const signing = profile.requests.signature;
  const bytes = DIGEST_BYTES[signing.algorithm];
  const form = signing.encoding === 'hex' ? new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`) : new RegExp(`^[A-Za-z0-9+/]{${4 * Math.floor(bytes / 3)}}[A-Za-z0-9+/=]{0,4}$`);
  const words = signing.encoding === 'hex' ? 'lowercase or uppercase hex' : 'base64';
  const description = describeSigning(profile, endpoint, {});
  const name = description.algorithm.split(',')[0] ?? description.algorithm;
  const secretWords = (merchant: string) =>
    signing.secret === 'key' ? `keyed with merchant ${merchant}'s secret` : `the ${signing.secret === 'last-slot' ? 'last' : 'first'} slot (<secret>) being merchant ${merchant}'s secret`;
  return {
    header: signatureHeader(profile, endpoint),
    algorithm: description.algorithm,
    shown: (values) => describeSigning(profile, endpoint, values).string_to_sign,
    verify: (secret, values, received) => verifyRequest(profile, secret, endpoint, values, received),
    looksSigned: (value) => form.test(value),
    expects: (merchant, shown) => `${words} ${name} of the string to sign ${JSON.stringify(shown)}, ${secretWords(merchant)}`,
    short: `${signing.encoding} ${name} of the string to sign, ${signing.secret === 'key' ? 'keyed with the secret' : 'the secret being one of its slots'}`,
    separator: signing.separator,
  };
}
