import type { CallbackDispatcher } from '../callbacks/callback-dispatcher.js';
import { type CodedText, codedText } from '../i18n/coded-text.js';
import { type Attempt, type CallbackEvent, countedAttempts } from '../store/callback-records.js';
import type { Store } from '../store/store.js';
import type { CoverageRowId } from './coverage-rows.js';
import type { CreditCheck } from './credit-check.js';
import { creditAdviceText, judgeCredit } from './judge-credit.js';
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

/** A 2xx that acknowledged the callback: under a profile's ok-text or code-zero a 2xx with another body does not (its attempt names the rule in `acknowledge`). */
const ok = (attempt: Attempt) => attempt.status !== null && attempt.status >= 200 && attempt.status < 300 && attempt.acknowledge === undefined;
const quoted = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 37)}...` : text);
const answer = (attempt: Attempt) =>
  attempt.status === null
    ? (attempt.error ?? 'no answer')
    : attempt.acknowledge !== undefined
      ? `HTTP ${attempt.status} ${quoted(attempt.response)}, not an acknowledgement under ${attempt.acknowledge}`
      : `HTTP ${attempt.status}`;
/** A detail that names the attempt's answer: `code` with an HTTP status, `<code>_no_answer` without one (the English line names the error either way). */
const answered = (code: 'coverage.duplicate.wrong' | 'coverage.delivery.wrong' | 'coverage.overlapping.wrong', attempt: Attempt): CodedText =>
  codedText(attempt.status !== null ? code : `${code}_no_answer`, { answer: answer(attempt) });
/** An attempt that counted and did not deliver: the sandbox's simulated failure, or the receiver's non-2xx or silence. */
const failedTry = (attempt: Attempt) => attempt.kind === 'simulated' || ((attempt.kind ?? 'delivery') === 'delivery' && !ok(attempt));

/** A row a delivered callback makes handled, and its detail. */
interface HandledRow {
  row: CoverageRowId;
  detail: CodedText;
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
    if (stateRow) rows.push({ row: stateRow, detail: codedText('coverage.acknowledged') });
    if (event.attempts.some(failedTry)) rows.push({ row: 'callback.retry_after_failure', detail: codedText('coverage.retry.acknowledged') });
    const row = scenarioRow(event);
    const copies = event.attempts.filter((a) => a.kind === 'duplicate');
    if (row === 'callback.overlapping' && copies.every(ok)) rows.push({ row, detail: codedText('coverage.overlapping.acknowledged') });
    if (row === 'callback.duplicate' && copies.length > 0 && copies.every(ok)) rows.push({ row, detail: codedText('coverage.duplicate.acknowledged') });
    const forged = event.attempts.find((a) => a.kind === 'bad_signature');
    if (row === 'callback.bad_signature' && forged !== undefined && forged.status !== null && forged.status >= 400 && forged.status < 500)
      rows.push({ row, detail: codedText('coverage.bad_signature.refused', { answer: answer(forged) }) });
    return rows;
  };

  /** With a probe: the rows wait, seen, for the probe's answer on the trade's credit. */
  const checkCredit = (event: CallbackEvent, rows: HandledRow[]) => {
    const { merchant, trade } = event;
    const record = store.trades.get(trade);
    if (record === undefined || credits === undefined) return; // reset meanwhile: nothing left to check
    for (const { row, detail } of rows) counter.coverSeen(merchant, row, trade, codedText('coverage.credit.reading', { base: detail }));
    const order = printable(record.order);
    credits.read(merchant, record.order, (reading) => {
      if (!reading.read) {
        for (const { row, detail } of rows) counter.coverSeen(merchant, row, trade, codedText('coverage.credit.unchecked', { base: detail, problem: reading.problem }));
        return;
      }
      const judged = judgeCredit({ order: record.order, amount_cents: record.amount_cents, state: event.state }, reading.answer);
      for (const { row, detail } of rows) {
        const advice = creditAdviceText(row, judged.verdict);
        if (judged.right || advice === undefined) counter.cover(merchant, row, 'handled', trade, codedText('coverage.credit.right', { base: detail, order, shows: judged.said }));
        else counter.cover(merchant, row, 'wrong', trade, codedText('coverage.credit.wrong', { order, shows: judged.said, advice }));
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
        counter.cover(merchant, 'callback.bad_signature', 'wrong', trade, codedText('coverage.bad_signature.accepted', { answer: answer(attempt) }));
      } else if (!checking && attempt.status !== null && attempt.status >= 400 && attempt.status < 500) {
        counter.cover(merchant, 'callback.bad_signature', 'handled', trade, codedText('coverage.bad_signature.refused', { answer: answer(attempt) }));
      }
      return;
    }
    if (failedTry(attempt)) counter.cover(merchant, 'callback.retry_after_failure', 'seen', trade);
    if (kind === 'duplicate') {
      // The second copy of an overlapping delivery (sbx-race-) is that row's, not callback.duplicate's.
      if (scenarioRow(event) === 'callback.overlapping') {
        if (!ok(attempt)) counter.cover(merchant, 'callback.overlapping', 'wrong', trade, answered('coverage.overlapping.wrong', attempt));
      } else if (!ok(attempt)) counter.cover(merchant, 'callback.duplicate', 'wrong', trade, answered('coverage.duplicate.wrong', attempt));
      else if (!checking) counter.cover(merchant, 'callback.duplicate', 'handled', trade, codedText('coverage.duplicate.acknowledged'));
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
      // A 2xx the profile's acknowledgement rule did not count: the receiver's mistake, with the rule's reason.
      if (attempt.acknowledge !== undefined) counter.wrongAcknowledgement(merchant, attempt.error ?? `not an acknowledgement under ${attempt.acknowledge}`);
      else if (attempt.status !== null) counter.callback(merchant, 'answered_non_2xx');
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
