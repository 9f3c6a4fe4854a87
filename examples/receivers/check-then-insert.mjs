// NAIVE: looks up "already credited?", waits for the database (a 40 ms round trip), then
// writes, with no unique key or lock. Right when callbacks come one at a time; wrong when two
// deliveries of one event overlap (a retry sent after a timeout while the first is still being
// processed, or at-least-once delivery from several workers): both look-ups say "not yet".
import { runIfMain, signatureOk } from './receiver-kit.mjs';

const ROUND_TRIP_MS = 40;
const credited = new WeakMap(); // ledger -> Set of orders credited (a table without a unique key)

export async function handle({ raw, trade, signature }, ledger) {
  if (!signatureOk(raw, signature)) return 401;
  if (!credited.has(ledger)) credited.set(ledger, new Set());
  const done = credited.get(ledger);
  if (trade.state === 'confirmed') {
    const already = done.has(trade.order); // SELECT 1 FROM credits WHERE order_id = ?
    await new Promise((resolve) => setTimeout(resolve, ROUND_TRIP_MS)); // the database round trip
    if (!already) {
      // BUG: INSERT without a unique key; the look-up above is already stale
      done.add(trade.order);
      const row = ledger.orders.get(trade.order) ?? { state: null, credited_cents: 0 };
      row.credited_cents += trade.amount_cents;
      ledger.orders.set(trade.order, row);
    }
  }
  await ledger.advanceState(trade.order, trade.state);
  return 200;
}

runIfMain(import.meta, handle);
