import type { PayKey } from './pay-en.js';
import type { ServerTextCode } from './server-texts-en.js';

/**
 * What the payer was told that ends a payment on the hosted page, and the code of the history
 * note that repeats it: written by the payment page (src/pages/test-cards.ts cardNote), read by
 * the integration report (a failed 3-D Secure step is not the merchant's mistake).
 */
export const CARD_NOTES = {
  'card.reason.approved': 'history.card.approved',
  'card.reason.declined': 'history.card.declined',
  'card.reason.funds': 'history.card.funds',
  'card.reason.timeout': 'history.card.timeout',
  '3ds.confirmed': 'history.card.3ds_confirmed',
  '3ds.wrongCode': 'history.card.3ds_wrong_code',
  '3ds.canceled': 'history.card.3ds_canceled',
} as const satisfies Partial<Record<PayKey, ServerTextCode>>;
