/* Pure (no node:crypto), so the dashboard's browser script names the algorithm as the 401 does. */
import type { RequestSigning } from './join-slots.js';

/** How the digest names are written in messages (SIGNATURE_ALGORITHM of src/auth/signature.ts for the sandbox's). */
const LABEL: Record<RequestSigning['algorithm'], string> = {
  'hmac-sha256': 'HMAC-SHA256',
  'hmac-sha512': 'HMAC-SHA512',
  sha256: 'SHA-256',
  sha512: 'SHA-512',
  sha1: 'SHA-1',
  md5: 'MD5',
};

/**
 * The algorithm and encoding, as the 401's diagnostics name them.
 *
 * @example
 * signingLabel({ algorithm: 'hmac-sha512', separator: '::', secret: 'key', encoding: 'base64' }) // 'HMAC-SHA512, base64'
 */
export function signingLabel(signing: Pick<RequestSigning, 'algorithm' | 'encoding'>): string {
  return `${LABEL[signing.algorithm]}, ${signing.encoding}`;
}
