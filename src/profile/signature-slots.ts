import { SIGNATURE_FIELDS, type SignedEndpoint } from '../auth/string-to-sign.js';

/**
 * The fields of a callback body that `callbacks.signature: request-style` signs, in the order the
 * interface document lists the Trade object: its seven top-level values. `payment_data` is left
 * out: it is nested, and its keys differ between the answers (ecom create carries only `url`),
 * while these seven name the trade and the outcome a receiver acts on.
 */
export const CALLBACK_SIGNATURE_FIELDS = ['id', 'order', 'merchant', 'state', 'amount_cents', 'amount_currency', 'rate'] as const;

/**
 * One slot of a string to sign, by the rules of stringToSign() (src/auth/string-to-sign.ts): a
 * string as it is, a number or boolean as written, an absent field or null empty, anything else
 * as JSON.
 */
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
 * The values of an endpoint's signature parameters, in the document's order, before a profile
 * joins them: stringToSign(endpoint, values) is these joined with `::`. `customer` fills the
 * `cusotmer` slot when `cusotmer` is absent.
 *
 * @example
 * signatureSlots('get', { merchant: 'm', uuid: 'u' }) // ['m', 'u']
 */
export function signatureSlots(endpoint: SignedEndpoint, values: Readonly<Record<string, unknown>>): string[] {
  return SIGNATURE_FIELDS[endpoint].map((field) => slot(field === 'cusotmer' ? (values['cusotmer'] ?? values['customer']) : values[field]));
}

/**
 * The values a request-style callback signature covers: CALLBACK_SIGNATURE_FIELDS of the body
 * the sandbox sends, each as written in it (a number's JSON text is its String()).
 *
 * @example
 * callbackSlots('{"id":"t","order":"o","merchant":"m","state":"confirmed","amount_cents":100,"amount_currency":"RUB","rate":92.5}')
 * // ['t', 'o', 'm', 'confirmed', '100', 'RUB', '92.5']
 */
export function callbackSlots(body: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const fields: Readonly<Record<string, unknown>> = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  return CALLBACK_SIGNATURE_FIELDS.map((field) => slot(fields[field]));
}
