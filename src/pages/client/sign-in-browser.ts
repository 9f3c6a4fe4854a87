import { signatureSlots, type SignedEndpoint } from '../../auth/string-to-sign.js';
import { joinSlots, type RequestSigning } from '../../profile/join-slots.js';
import { md5 } from './md5.js';

/** The WebCrypto name of each algorithm's hash; MD5 has none (md5.ts). */
const WEB_HASH: Record<Exclude<RequestSigning['algorithm'], 'md5'>, string> = {
  'hmac-sha256': 'SHA-256',
  'hmac-sha512': 'SHA-512',
  sha256: 'SHA-256',
  sha512: 'SHA-512',
  sha1: 'SHA-1',
};

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
const base64 = (bytes: Uint8Array) => btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(''));

/**
 * A provider request's signature under a profile's signing rule, in the browser: what
 * signRequest() of src/profile/sign-request.ts computes with node:crypto, here with WebCrypto
 * (`crypto.subtle`, found only on a secure page: https, localhost or 127.0.0.1) and, for MD5,
 * which WebCrypto lacks, md5.ts. Text is hashed as UTF-8; hex is lowercase.
 *
 * @example
 * await signInBrowser(profile.requests.signature, merchant.secret, 'create', body)
 */
export async function signInBrowser(signing: RequestSigning, secret: string, endpoint: SignedEndpoint, values: Readonly<Record<string, unknown>>): Promise<string> {
  const encoder = new TextEncoder();
  const message = encoder.encode(joinSlots(signing, signatureSlots(endpoint, values), secret));
  let digest: Uint8Array;
  if (signing.algorithm === 'md5') {
    digest = md5(message);
  } else if (signing.algorithm.startsWith('hmac-')) {
    const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: WEB_HASH[signing.algorithm] }, false, ['sign']);
    digest = new Uint8Array(await crypto.subtle.sign('HMAC', key, message));
  } else {
    digest = new Uint8Array(await crypto.subtle.digest(WEB_HASH[signing.algorithm], message));
  }
  return signing.encoding === 'hex' ? hex(digest) : base64(digest);
}
