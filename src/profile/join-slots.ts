/* Pure (no node:crypto), so the dashboard's browser script builds the same string to sign. */
import type { Profile } from './profile-schema.js';

/** A profile's request signing rule: algorithm, separator, where the secret goes, encoding and header. */
export type RequestSigning = Profile['requests']['signature'];

/**
 * The slots with the secret placed as the profile says (plain hashes), joined with its separator.
 *
 * @example
 * joinSlots({ algorithm: 'md5', separator: ':', secret: 'last-slot', encoding: 'hex' }, ['m', 'u'], 'k') // 'm:u:k'
 */
export function joinSlots(signing: Pick<RequestSigning, 'separator' | 'secret'>, slots: readonly string[], secret: string): string {
  if (signing.secret === 'last-slot') return [...slots, secret].join(signing.separator);
  if (signing.secret === 'first-slot') return [secret, ...slots].join(signing.separator);
  return slots.join(signing.separator);
}
