// A correct callback receiver: verify first, then handle each (trade, state) at most once,
// never move an order back, credit only on "confirmed", and answer 2xx to every genuine
// callback (repeats and older states included). Run: node examples/receivers/correct.mjs
import { RANK, runIfMain, signatureOk } from './receiver-kit.mjs';

export function handle({ raw, trade, signature }, ledger) {
  if (!signatureOk(raw, signature)) return 401; // nothing changes for a forged callback
  const row = ledger.orders.get(trade.order) ?? { state: null, credited_cents: 0, credited: false };
  if (row.state !== null && RANK[trade.state] < RANK[row.state]) return 200; // older state: ignore
  row.state = trade.state;
  if (trade.state === 'confirmed' && !row.credited) {
    // Once per trade, whatever the event id: repeats, retries and replays credit nothing more.
    row.credited = true;
    row.credited_cents += trade.amount_cents;
  }
  ledger.orders.set(trade.order, row);
  return 200;
}

runIfMain(import.meta, handle);
