// NAIVE: credits every "confirmed" it receives, so a repeated callback (at-least-once
// delivery, a retry after a timeout, a replay) credits the order again.
import { RANK, runIfMain, signatureOk } from './receiver-kit.mjs';

export function handle({ raw, trade, signature }, ledger) {
  if (!signatureOk(raw, signature)) return 401;
  const row = ledger.orders.get(trade.order) ?? { state: null, credited_cents: 0 };
  if (row.state !== null && RANK[trade.state] < RANK[row.state]) return 200;
  row.state = trade.state;
  if (trade.state === 'confirmed') row.credited_cents += trade.amount_cents; // BUG: no de-duplication
  ledger.orders.set(trade.order, row);
  return 200;
}

runIfMain(import.meta, handle);
