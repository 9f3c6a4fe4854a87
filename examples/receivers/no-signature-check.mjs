// NAIVE: never looks at X-Signature, so anyone who can reach the URL can mark an order paid.
import { RANK, runIfMain } from './receiver-kit.mjs';

export function handle({ trade }, ledger) {
  // BUG: no signature check
  const row = ledger.orders.get(trade.order) ?? { state: null, credited_cents: 0, credited: false };
  if (row.state !== null && RANK[trade.state] < RANK[row.state]) return 200;
  row.state = trade.state;
  if (trade.state === 'confirmed' && !row.credited) {
    row.credited = true;
    row.credited_cents += trade.amount_cents;
  }
  ledger.orders.set(trade.order, row);
  return 200;
}

runIfMain(import.meta, handle);
