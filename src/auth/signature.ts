import { createHmac, timingSafeEqual } from 'node:crypto';

export { SIGNATURE_FIELDS, stringToSign, type SignedEndpoint } from './string-to-sign.js';

export const SIGNATURE_ALGORITHM = 'HMAC-SHA256, hex';

/** Lowercase hex HMAC-SHA256 of `message` (text as UTF-8, bytes as they are) keyed with `secret`. */
export function sign(secret: string, message: string | Uint8Array): string {
  return createHmac('sha256', secret).update(message).digest('hex');
}

/** Constant-time comparison of two strings. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** True when `signature` (hex, either case) is the HMAC of `message` with `secret`. */
export function verifySignature(secret: string, message: string | Uint8Array, signature: string): boolean {
  return safeEqual(sign(secret, message), signature.trim().toLowerCase());
}

/**
 * Checks a callback the sandbox sent: `X-Signature` is hex HMAC-SHA256 of the raw body
 * keyed with the merchant's secret.
 */
export function verifyCallbackSignature(secret: string, body: string | Uint8Array, signature: string | null | undefined): boolean {
  if (!signature) return false;
  // Bytes are checked as they are: decoding them first would let a damaged body verify.
  return verifySignature(secret, body, signature);
}
