import type { Lifecycle } from '../lifecycle/lifecycle.js';
import type { CodedText } from '../i18n/coded-text.js';
import type { ServerTextCode } from '../i18n/server-texts-en.js';
import { CARD_NOTES } from '../i18n/card-notes.js';
import type { MistakeCounter } from './mistake-counter.js';

/** The history notes of a failed 3-D Secure step (src/i18n/card-notes.ts). */
const DECLINED: ReadonlySet<string> = new Set<ServerTextCode>([CARD_NOTES['3ds.wrongCode'], CARD_NOTES['3ds.canceled']]);

/** Feeds row payment.3ds_declined: a payer failed the 3-D Secure step of one of the merchant's trades (not of QA's). */
export function watchPayments(lifecycle: Lifecycle, counter: MistakeCounter): void {
  lifecycle.onChange((change) => {
    if (change.cause !== 'page' || change.to !== 'canceled') return;
    const last = change.trade.history.at(-1);
    if (last?.note === undefined || last.note_code === undefined || !DECLINED.has(last.note_code)) return;
    if (counter.isQaTrade(change.trade.id)) return;
    const detail: CodedText = { text: last.note, code: last.note_code as ServerTextCode, params: last.note_params ?? {} };
    counter.cover(change.trade.merchant, 'payment.3ds_declined', 'seen', change.trade.id, detail);
  });
}
