import { slot } from '../auth/string-to-sign.js';

/**
 * The fields of a callback body that `callbacks.signature: request-style` signs, in the order the
 * interface document lists the Trade object: its seven top-level values. `payment_data` is left
 * out: it is nested, and its keys differ between the answers (ecom create carries only `url`),
 * while these seven name the trade and the outcome a receiver acts on.
 */
export const CALLBACK_SIGNATURE_FIELDS = ['id', 'order', 'merchant', 'state', 'amount_cents', 'amount_currency', 'rate'] as const;

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
