import { createHash, createHmac } from 'node:crypto';
import { joinSlots, type RequestSigning } from './join-slots.js';

export { joinSlots, type RequestSigning } from './join-slots.js';
export { signingLabel } from './signing-label.js';

/** Stands for the secret in a string to sign that is shown. */
export const SECRET_MASK = '<secret>';

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
