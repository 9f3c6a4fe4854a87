// NAIVE: does the work first and checks the signature afterwards: forged callbacks are
// answered 401, but the order was already credited.
import { RANK, runIfMain, signatureOk } from './receiver-kit.mjs';

export function handle({ raw, trade, signature }, ledger) {
  const row = ledger.orders.get(trade.order) ?? { state: null, credited_cents: 0, credited: false };
  if (trade.state === 'confirmed' && !row.credited) {
    // BUG: credited before the signature is verified
    row.credited = true;
    row.credited_cents += trade.amount_cents;
    ledger.orders.set(trade.order, row);
  }
  if (!signatureOk(raw, signature)) return 401;
  if (row.state === null || RANK[trade.state] >= RANK[row.state]) row.state = trade.state;
  ledger.orders.set(trade.order, row);
  return 200;
}

runIfMain(import.meta, handle);
