import { createHash } from 'node:crypto';

/** What a secret, a token or a signature is replaced with in a recording. */
export const MASK = '***';

/**
 * Headers whose value is a credential or a signature: masked whatever they hold. Any header whose
 * name holds "signature" is one too (X-Signature, webhook-signature, a profile's own).
 */
const CREDENTIAL_HEADERS = new Set(['x-auth', 'x-token', 'authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** Whether a header's value is masked in a recording. */
export function isCredentialHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return CREDENTIAL_HEADERS.has(lower) || lower.includes('signature');
}

/** JSON members that hold a credential in the admin API's bodies (a merchant's, a signature, what a refused request sent). */
const CREDENTIAL_MEMBERS = /"(token|secret|received|signature)"(\s*:\s*)"(?:[^"\\]|\\.)*"/g;
/** Standard Webhooks keys, wherever they stand. */
const WEBHOOK_KEYS = /whsec_[A-Za-z0-9+/=]+/g;

/**
 * `text` with every known secret and token replaced by MASK, and, with `members`, every JSON
 * member named token, secret, received or signature holding a string, and every Standard
 * Webhooks key. `known` is short (the merchants' tokens and secrets), so the common case (none
 * found) costs a few `includes`.
 */
export function maskText(text: string, known: readonly string[], members = false): string {
  let out = text;
  for (const value of known) if (value.length >= 4 && out.includes(value)) out = out.replaceAll(value, MASK);
  if (members) {
    if (out.includes('"')) out = out.replace(CREDENTIAL_MEMBERS, `"$1"$2"${MASK}"`);
    if (out.includes('whsec_')) out = out.replace(WEBHOOK_KEYS, MASK);
  }
  return out;
}

/**
 * The SHA-256 of a masked value, hex: a recording keeps it in place of a signature, so a replay
 * that signs again can prove it sent the same bytes without the recording holding the signature.
 */
export function fingerprint(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
