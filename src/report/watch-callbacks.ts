import type { CallbackDispatcher } from '../callbacks/callback-dispatcher.js';
import { type Attempt, type CallbackEvent, countedAttempts } from '../callbacks/records.js';
import type { Store } from '../store/store.js';
import type { CoverageRowId } from './coverage-rows.js';
import type { CreditCheck } from './credit-check.js';
import { creditAdvice, judgeCredit } from './judge-credit.js';
import type { MistakeCounter } from './mistake-counter.js';
import { printable } from './printable.js';

const TIMED_OUT = /^No answer within |did not finish the answer within /;

/** The row of each state a callback reports. */
const STATE_ROWS: Partial<Record<CallbackEvent['state'], CoverageRowId>> = { confirmed: 'callback.confirmed', canceled: 'callback.canceled', expired: 'callback.expired' };

/** The callback scenarios with a row of their own, by scenario name and by order prefix. */
const SCENARIO_ROWS: ReadonlyArray<{ scenario: string; prefix: string; row: CoverageRowId }> = [
  { scenario: 'duplicate-callback', prefix: 'sbx-dup-', row: 'callback.duplicate' },
  { scenario: 'overlapping-callbacks', prefix: 'sbx-race-', row: 'callback.overlapping' },
  { scenario: 'bad-signature-callback', prefix: 'sbx-badsig-', row: 'callback.bad_signature' },
];

const ok = (attempt: Attempt) => attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
const answer = (attempt: Attempt) => (attempt.status !== null ? `HTTP ${attempt.status}` : (attempt.error ?? 'no answer'));
/** An attempt that counted and did not deliver: the sandbox's simulated failure, or the receiver's non-2xx or silence. */
const failedTry = (attempt: Attempt) => attempt.kind === 'simulated' || ((attempt.kind ?? 'delivery') === 'delivery' && !ok(attempt));

/** A row a delivered callback makes handled, and its detail. */
interface HandledRow {
  row: CoverageRowId;
  detail: string;
}

/**
 * Feeds the counter from the callback dispatcher's events: the one place callback mistakes
 * and callback coverage rows are seen. Callbacks of trades created from the dashboard are QA's
 * and count for nothing.
 *
 * With a balance probe (`credits.on`, serve --probe), a delivered callback makes its rows
 * `handled` only once the probe shows the right credit for the trade (its amount once for
 * confirmed, nothing otherwise), `wrong` when it shows another; until the probe answers they
 * stay `seen`, and a probe that cannot be read leaves them `seen` with the reason (never wrong).
 */
export function watchCallbacks(dispatcher: CallbackDispatcher, counter: MistakeCounter, store: Store, credits?: CreditCheck): void {
  const checking = credits?.on === true;
  const scenarioRow = (event: CallbackEvent): CoverageRowId | undefined => {
    const trade = store.trades.get(event.trade);
    if (trade === undefined) return undefined;
    return SCENARIO_ROWS.find((s) => s.scenario === trade.scenario || trade.order.startsWith(s.prefix))?.row;
  };

  /** The rows a delivered event makes handled (all its deliveries, copies included, have been answered). */
  const handledRows = (event: CallbackEvent): HandledRow[] => {
    const rows: HandledRow[] = [];
    const stateRow = STATE_ROWS[event.state];
    if (stateRow) rows.push({ row: stateRow, detail: 'acknowledged with 2xx' });
    if (event.attempts.some(failedTry)) rows.push({ row: 'callback.retry_after_failure', detail: 'acknowledged after a failed attempt' });
    const row = scenarioRow(event);
    const copies = event.attempts.filter((a) => a.kind === 'duplicate');
    if (row === 'callback.overlapping' && copies.every(ok)) rows.push({ row, detail: 'every overlapping callback was acknowledged with 2xx' });
    if (row === 'callback.duplicate' && copies.length > 0 && copies.every(ok)) rows.push({ row, detail: 'both deliveries of the callback were acknowledged with 2xx' });
    const forged = event.attempts.find((a) => a.kind === 'bad_signature');
    if (row === 'callback.bad_signature' && forged !== undefined && forged.status !== null && forged.status >= 400 && forged.status < 500)
      rows.push({ row, detail: `the copy with a wrong X-Signature was refused (${answer(forged)})` });
    return rows;
  };

  /** With a probe: the rows wait, seen, for the probe's answer on the trade's credit. */
  const checkCredit = (event: CallbackEvent, rows: HandledRow[]) => {
    const { merchant, trade } = event;
    const record = store.trades.get(trade);
    if (record === undefined || credits === undefined) return; // reset meanwhile: nothing left to check
    for (const { row, detail } of rows) counter.coverSeen(merchant, row, trade, `${detail}; reading the balance probe`);
    const order = printable(record.order);
    credits.read(merchant, record.order, (reading) => {
      if (!reading.read) {
        for (const { row, detail } of rows) counter.coverSeen(merchant, row, trade, `${detail}; credit not checked: the balance probe ${reading.problem}`);
        return;
      }
      const judged = judgeCredit({ order: record.order, amount_cents: record.amount_cents, state: event.state }, reading.answer);
      for (const { row, detail } of rows) {
        if (judged.right) counter.cover(merchant, row, 'handled', trade, `${detail}; the balance probe shows order ${order} ${judged.shows}`);
        else counter.cover(merchant, row, 'wrong', trade, `acknowledged with 2xx, but the balance probe shows order ${order} ${judged.shows}: ${creditAdvice(row, judged.verdict)}`);
      }
    });
  };

  dispatcher.on('queued', (event) => {
    if (counter.isQaTrade(event.trade)) return;
    const stateRow = STATE_ROWS[event.state];
    if (stateRow) counter.cover(event.merchant, stateRow, 'seen', event.trade);
    const row = scenarioRow(event);
    if (row) counter.cover(event.merchant, row, 'seen', event.trade);
  });

  dispatcher.on('attempt', (event, attempt) => {
    if (counter.isQaTrade(event.trade)) return;
    const kind = attempt.kind ?? 'delivery';
    const { merchant, trade } = event;
    if (kind === 'bad_signature') {
      if (ok(attempt)) {
        counter.callback(merchant, 'accepted_bad_signature');
        counter.cover(merchant, 'callback.bad_signature', 'wrong', trade, `the copy with a wrong X-Signature was accepted (${answer(attempt)}): verify the signature and answer 401`);
      } else if (!checking && attempt.status !== null && attempt.status >= 400 && attempt.status < 500) {
        counter.cover(merchant, 'callback.bad_signature', 'handled', trade, `the copy with a wrong X-Signature was refused (${answer(attempt)})`);
      }
      return;
    }
    if (failedTry(attempt)) counter.cover(merchant, 'callback.retry_after_failure', 'seen', trade);
    if (kind === 'duplicate') {
      // The second copy of an overlapping delivery (sbx-race-) is that row's, not callback.duplicate's.
      if (scenarioRow(event) === 'callback.overlapping') {
        if (!ok(attempt)) counter.cover(merchant, 'callback.overlapping', 'wrong', trade, `an overlapping callback was answered ${answer(attempt)}`);
      } else if (!ok(attempt)) counter.cover(merchant, 'callback.duplicate', 'wrong', trade, `the second delivery of the same callback was answered ${answer(attempt)}: acknowledge repeats with 2xx`);
      else if (!checking) counter.cover(merchant, 'callback.duplicate', 'handled', trade, 'both deliveries of the callback were acknowledged with 2xx');
    }
    if (kind !== 'delivery' && kind !== 'duplicate' && kind !== 'simulated') {
      // A kind this watcher does not know (a newer scenario's extra delivery): judged as a delivery of its row.
      const row = scenarioRow(event);
      if (row && row !== 'callback.bad_signature' && !ok(attempt)) counter.cover(merchant, row, 'wrong', trade, `a delivery was answered ${answer(attempt)}`);
      return;
    }
    if (kind !== 'delivery') return; // simulated failures and the scenario's duplicate copy are the sandbox's doing
    if (!ok(attempt)) {
      if (scenarioRow(event) === 'callback.overlapping') counter.cover(merchant, 'callback.overlapping', 'wrong', trade, `an overlapping callback was answered ${answer(attempt)}`);
      if (attempt.status !== null) counter.callback(merchant, 'answered_non_2xx');
      else if (attempt.error !== undefined && TIMED_OUT.test(attempt.error)) counter.callback(merchant, 'timed_out');
    }
  });

  dispatcher.on('delivered', (event) => {
    if (counter.isQaTrade(event.trade)) return;
    const rows = handledRows(event);
    if (rows.length === 0) return;
    if (checking) checkCredit(event, rows);
    else for (const { row, detail } of rows) counter.cover(event.merchant, row, 'handled', event.trade, detail);
  });

  dispatcher.on('failed', (event) => {
    if (counter.isQaTrade(event.trade)) return;
    const { merchant, trade } = event;
    counter.neverAcknowledged(merchant);
    const last = event.attempts.at(-1);
    const cause = `never acknowledged: ${countedAttempts(event)} attempts failed${last ? `, the last with ${answer(last)}` : ''}`;
    const stateRow = STATE_ROWS[event.state];
    if (stateRow) counter.cover(merchant, stateRow, 'wrong', trade, cause);
    if (countedAttempts(event) > 1) counter.cover(merchant, 'callback.retry_after_failure', 'wrong', trade, cause);
    const row = scenarioRow(event);
    if (row === 'callback.duplicate' || row === 'callback.overlapping') counter.cover(merchant, row, 'wrong', trade, cause);
  });
}
