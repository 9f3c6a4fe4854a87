import { createHash, createHmac } from 'node:crypto';
import type { Profile } from './profile-schema.js';

export type RequestSigning = Profile['requests']['signature'];

/** How the digest names are written in messages (SIGNATURE_ALGORITHM of src/auth/signature.ts for the sandbox's). */
const LABEL: Record<RequestSigning['algorithm'], string> = {
  'hmac-sha256': 'HMAC-SHA256',
  'hmac-sha512': 'HMAC-SHA512',
  sha256: 'SHA-256',
  sha512: 'SHA-512',
  sha1: 'SHA-1',
  md5: 'MD5',
};

/** Stands for the secret in a string to sign that is shown. */
export const SECRET_MASK = '<secret>';

/**
 * The slots with the secret placed as the profile says (plain hashes), joined with its separator.
 *
 * @example
 * joinSlots({ algorithm: 'md5', separator: ':', secret: 'last-slot', encoding: 'hex' }, ['m', 'u'], 'k') // 'm:u:k'
 */
export function joinSlots(signing: RequestSigning, slots: readonly string[], secret: string): string {
  if (signing.secret === 'last-slot') return [...slots, secret].join(signing.separator);
  if (signing.secret === 'first-slot') return [secret, ...slots].join(signing.separator);
  return slots.join(signing.separator);
}

/**
 * The signature of `slots` under a profile's signing rule: an HMAC keyed with the secret, or a
 * plain hash of a string holding the secret as one more slot; hex (lowercase) or base64.
 *
 * @example
 * signSlots({ algorithm: 'hmac-sha256', separator: '::', secret: 'key', encoding: 'hex' }, ['m', 'u'], 'k')
 * // === createHmac('sha256', 'k').update('m::u').digest('hex')
 */
export function signSlots(signing: RequestSigning, slots: readonly string[], secret: string): string {
  const message = joinSlots(signing, slots, secret);
  const digest = signing.algorithm.startsWith('hmac-') ? createHmac(signing.algorithm.slice('hmac-'.length), secret) : createHash(signing.algorithm);
  return digest.update(message, 'utf8').digest(signing.encoding);
}

/**
 * The algorithm and encoding, as the 401's diagnostics name them.
 *
 * @example
 * signingLabel({ algorithm: 'hmac-sha512', separator: '::', secret: 'key', encoding: 'base64' }) // 'HMAC-SHA512, base64'
 */
export function signingLabel(signing: RequestSigning): string {
  return `${LABEL[signing.algorithm]}, ${signing.encoding}`;
}
