import type { Lifecycle } from '../lifecycle/lifecycle.js';
import { PAY_EN } from '../pages/i18n/pay-en.js';
import type { MistakeCounter } from './mistake-counter.js';

/** The history notes of a failed 3-D Secure step (always English, src/pages/test-cards.ts cardNote). */
const DECLINED = [PAY_EN['3ds.wrongCode'], PAY_EN['3ds.canceled']];

/** Feeds row payment.3ds_declined: a payer failed the 3-D Secure step of one of the merchant's trades (not of QA's). */
export function watchPayments(lifecycle: Lifecycle, counter: MistakeCounter): void {
  lifecycle.onChange((change) => {
    if (change.cause !== 'page' || change.to !== 'canceled') return;
    const note = change.trade.history.at(-1)?.note;
    if (note === undefined || !DECLINED.some((text) => note.endsWith(text))) return;
    if (counter.isQaTrade(change.trade.id)) return;
    counter.cover(change.trade.merchant, 'payment.3ds_declined', 'seen', change.trade.id, note);
  });
}
