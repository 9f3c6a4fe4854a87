import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signature parameters of each endpoint, in the interface document's order.
 * The document spells the payer slot `cusotmer`; its value is the body's `customer`
 * (or `cusotmer`, when the merchant sends that spelling).
 */
export const SIGNATURE_FIELDS = {
  create: ['amount_cents', 'amount_currency', 'callback_url', 'cusotmer', 'merchant', 'order', 'return_url', 'type'],
  build: ['amount_cents', 'amount_currency', 'callback_url', 'cusotmer', 'merchant', 'order', 'return_url', 'type'],
  get: ['merchant', 'uuid'],
} as const;

export type SignedEndpoint = keyof typeof SIGNATURE_FIELDS;

export const SIGNATURE_ALGORITHM = 'HMAC-SHA256, hex';

function slot(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '(nested too deeply to sign)'; // the body is refused by validation anyway
  }
}

/**
 * The string to sign: the endpoint's signature parameters joined with `::`, an absent
 * field being an empty slot. `customer` fills the `cusotmer` slot when `cusotmer` is absent.
 *
 *   stringToSign('get', { merchant: 'm', uuid: 'u' }) === 'm::u'
 */
export function stringToSign(endpoint: SignedEndpoint, values: Readonly<Record<string, unknown>>): string {
  return SIGNATURE_FIELDS[endpoint]
    .map((field) => {
      if (field === 'cusotmer') return slot(values['cusotmer'] ?? values['customer']);
      return slot(values[field]);
    })
    .join('::');
}

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
