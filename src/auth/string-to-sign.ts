/* Pure (no node:crypto), so the dashboard's browser script signs with the same code. */

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

/** One slot of a string to sign: a string as it is, a number or boolean as written, an absent field or null empty, anything else as JSON. */
export function slot(value: unknown): string {
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
 * The values of an endpoint's signature parameters, in the document's order, an absent field
 * being an empty slot; `customer` fills the `cusotmer` slot when `cusotmer` is absent. A profile
 * joins them with its own separator (src/profile/sign-request.ts).
 *
 *   signatureSlots('get', { merchant: 'm', uuid: 'u' }) // ['m', 'u']
 */
export function signatureSlots(endpoint: SignedEndpoint, values: Readonly<Record<string, unknown>>): string[] {
  return SIGNATURE_FIELDS[endpoint].map((field) => slot(field === 'cusotmer' ? (values['cusotmer'] ?? values['customer']) : values[field]));
}

/**
 * The string to sign: the endpoint's signature parameters joined with `::`.
 *
 *   stringToSign('get', { merchant: 'm', uuid: 'u' }) === 'm::u'
 */
export function stringToSign(endpoint: SignedEndpoint, values: Readonly<Record<string, unknown>>): string {
  return signatureSlots(endpoint, values).join('::');
}
