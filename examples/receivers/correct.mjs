// A correct callback receiver: verify first, then let the database refuse a second credit
// (a unique key on the order, INSERT ... ON CONFLICT DO NOTHING), never move an order back,
// credit only on "confirmed", and answer 2xx to every genuine callback (repeats, retries,
// replays and overlapping deliveries included). Run: node examples/receivers/correct.mjs
import { runIfMain, signatureOk } from './receiver-kit.mjs';

export async function handle({ raw, trade, signature }, ledger) {
  if (!signatureOk(raw, signature)) return 401; // nothing changes for a forged callback
  if (trade.state === 'confirmed') {
    // No "already credited?" look-up first: two deliveries that overlap would both pass it.
    // The insert itself refuses the second one, whatever its event id.
    await ledger.insertCredit(trade.order, trade.amount_cents);
  }
  await ledger.advanceState(trade.order, trade.state); // an older state never replaces a newer one
  return 200;
}

runIfMain(import.meta, handle);
