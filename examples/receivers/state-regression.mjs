// NAIVE: stores whatever state arrives last, so "created" arriving late after "confirmed"
// moves a paid order back.
import { runIfMain, signatureOk } from './receiver-kit.mjs';

export function handle({ raw, trade, signature }, ledger) {
  if (!signatureOk(raw, signature)) return 401;
  const row = ledger.orders.get(trade.order) ?? { state: null, credited_cents: 0, credited: false };
  row.state = trade.state; // BUG: no check that the state is newer than the stored one
  if (trade.state === 'confirmed' && !row.credited) {
    row.credited = true;
    row.credited_cents += trade.amount_cents;
  }
  ledger.orders.set(trade.order, row);
  return 200;
}

runIfMain(import.meta, handle);
