import type { CallbackDispatcher } from '../callbacks/callback-dispatcher.js';
import { type CodedText, codedText } from '../pages/i18n/coded-text.js';
import { type Attempt, type CallbackEvent, countedAttempts } from '../callbacks/records.js';
import type { Store } from '../store/store.js';
import type { CoverageRowId } from './coverage-rows.js';
import type { MistakeCounter } from './mistake-counter.js';

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
/** A detail that names the attempt's answer: `code` with an HTTP status, `<code>_no_answer` without one (the English line names the error either way). */
const answered = (code: 'coverage.duplicate.wrong' | 'coverage.delivery.wrong' | 'coverage.overlapping.wrong', attempt: Attempt): CodedText =>
  codedText(attempt.status !== null ? code : `${code}_no_answer`, { answer: answer(attempt) });
/** An attempt that counted and did not deliver: the sandbox's simulated failure, or the receiver's non-2xx or silence. */
const failedTry = (attempt: Attempt) => attempt.kind === 'simulated' || ((attempt.kind ?? 'delivery') === 'delivery' && !ok(attempt));

/**
 * Feeds the counter from the callback dispatcher's events: the one place callback mistakes
 * and callback coverage rows are seen. Callbacks of trades created from the dashboard are QA's
 * and count for nothing.
 */
export function watchCallbacks(dispatcher: CallbackDispatcher, counter: MistakeCounter, store: Store): void {
  const scenarioRow = (event: CallbackEvent): CoverageRowId | undefined => {
    const trade = store.trades.get(event.trade);
    if (trade === undefined) return undefined;
    return SCENARIO_ROWS.find((s) => s.scenario === trade.scenario || trade.order.startsWith(s.prefix))?.row;
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
        counter.cover(merchant, 'callback.bad_signature', 'wrong', trade, codedText('coverage.bad_signature.accepted', { answer: answer(attempt) }));
      } else if (attempt.status !== null && attempt.status >= 400 && attempt.status < 500) {
        counter.cover(merchant, 'callback.bad_signature', 'handled', trade, codedText('coverage.bad_signature.refused', { answer: answer(attempt) }));
      }
      return;
    }
    if (failedTry(attempt)) counter.cover(merchant, 'callback.retry_after_failure', 'seen', trade);
    if (kind === 'duplicate') {
      if (ok(attempt)) counter.cover(merchant, 'callback.duplicate', 'handled', trade, codedText('coverage.duplicate.acknowledged'));
      else counter.cover(merchant, 'callback.duplicate', 'wrong', trade, answered('coverage.duplicate.wrong', attempt));
    }
    if (kind !== 'delivery' && kind !== 'duplicate' && kind !== 'simulated') {
      // A kind this watcher does not know (a newer scenario's extra delivery): judged as a delivery of its row.
      const row = scenarioRow(event);
      if (row && row !== 'callback.bad_signature' && !ok(attempt)) counter.cover(merchant, row, 'wrong', trade, answered('coverage.delivery.wrong', attempt));
      return;
    }
    if (kind !== 'delivery') return; // simulated failures and the scenario's duplicate copy are the sandbox's doing
    if (!ok(attempt)) {
      if (scenarioRow(event) === 'callback.overlapping') counter.cover(merchant, 'callback.overlapping', 'wrong', trade, answered('coverage.overlapping.wrong', attempt));
      if (attempt.status !== null) counter.callback(merchant, 'answered_non_2xx');
      else if (attempt.error !== undefined && TIMED_OUT.test(attempt.error)) counter.callback(merchant, 'timed_out');
    }
  });

  dispatcher.on('delivered', (event) => {
    if (counter.isQaTrade(event.trade)) return;
    const { merchant, trade } = event;
    const stateRow = STATE_ROWS[event.state];
    if (stateRow) counter.cover(merchant, stateRow, 'handled', trade, codedText('coverage.acknowledged'));
    if (event.attempts.some(failedTry)) counter.cover(merchant, 'callback.retry_after_failure', 'handled', trade, codedText('coverage.retry.acknowledged'));
    if (scenarioRow(event) === 'callback.overlapping') counter.cover(merchant, 'callback.overlapping', 'handled', trade, codedText('coverage.overlapping.acknowledged'));
  });

  dispatcher.on('failed', (event) => {
    if (counter.isQaTrade(event.trade)) return;
    const { merchant, trade } = event;
    counter.neverAcknowledged(merchant);
    const last = event.attempts.at(-1);
    const count = countedAttempts(event);
    const cause = last
      ? codedText(last.status !== null ? 'coverage.never_acknowledged.last' : 'coverage.never_acknowledged.last_no_answer', { count, answer: answer(last) })
      : codedText('coverage.never_acknowledged', { count });
    const stateRow = STATE_ROWS[event.state];
    if (stateRow) counter.cover(merchant, stateRow, 'wrong', trade, cause);
    if (countedAttempts(event) > 1) counter.cover(merchant, 'callback.retry_after_failure', 'wrong', trade, cause);
    const row = scenarioRow(event);
    if (row === 'callback.duplicate' || row === 'callback.overlapping') counter.cover(merchant, row, 'wrong', trade, cause);
  });
}
