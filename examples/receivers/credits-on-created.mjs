// NAIVE: credits the order on the first callback it sees, "created" included, as if any
// callback meant "paid".
import { RANK, runIfMain, signatureOk } from './receiver-kit.mjs';

export function handle({ raw, trade, signature }, ledger) {
  if (!signatureOk(raw, signature)) return 401;
  const row = ledger.orders.get(trade.order) ?? { state: null, credited_cents: 0, credited: false };
  if (row.state !== null && RANK[trade.state] < RANK[row.state]) return 200;
  row.state = trade.state;
  if (!row.credited) {
    // BUG: credits whatever the state (should be only "confirmed")
    row.credited = true;
    row.credited_cents += trade.amount_cents;
  }
  ledger.orders.set(trade.order, row);
  return 200;
}

runIfMain(import.meta, handle);
