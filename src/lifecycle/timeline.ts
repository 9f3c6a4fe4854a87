import type { Scheduler } from '../clock/scheduler.js';
import { type CodedText, codedText, textParamsSchema } from '../i18n/coded-text.js';
import { SERVER_TEXTS_EN, type ServerTextCode } from '../i18n/server-texts-en.js';
import { Refusal } from '../refusals/refusal.js';
import type { TradeRecord } from '../trades/trade.js';
import type { Lifecycle } from './lifecycle.js';

/** Job kind of a scheduled state change (a scenario's timeline step, or the later steps of a payment made on the page). */
export const TIMELINE_JOB = 'transition';

/**
 * Under a provider profile with intermediate states, how long (sandbox clock) each later state
 * of a payment made on the payment page waits for the one before: paid -> first intermediate
 * state at once, then the next one every SETTLE_STEP_MS, `confirmed` last.
 */
export const SETTLE_STEP_MS = 5_000;

/**
 * Runs timeline steps: moves the trade when the step falls due. A step that the table no
 * longer allows (the trade was paid or canceled meanwhile) is skipped. A step scheduled by the
 * payment page (data.cause "page") keeps that cause in the history; any other is the scenario's.
 */
export function registerTimeline(scheduler: Scheduler, lifecycle: Lifecycle): void {
  scheduler.handle(TIMELINE_JOB, (job) => {
    if (!job.trade) return;
    const state = String(job.data['state']);
    const note = noteOf(job.data);
    // A refusal (the trade moved on meanwhile, or is gone) skips the step.
    lifecycle.transition(job.trade, state, job.data['cause'] === 'page' ? 'page' : 'scenario', note);
  });
}

/**
 * The payer paid on the payment page (P2P "I have paid", an approved test card, a passed 3-D
 * Secure check). Without intermediate states the trade is confirmed now. With them (profile
 * `states.intermediate`) it moves to the first one now, and the rest follow on the sandbox
 * clock, SETTLE_STEP_MS apart, to `confirmed`: stored timeline jobs, so they survive a restart,
 * go through the transition table, and are skipped when the trade was moved on meanwhile (an
 * admin's `canceled`). Returns the moved trade or the lifecycle's refusal.
 */
export function payOnPage(lifecycle: Lifecycle, scheduler: Scheduler, id: string, note: CodedText, now: number): TradeRecord | Refusal {
  const [first, ...rest] = lifecycle.table().intermediate;
  if (first === undefined) return lifecycle.transition(id, 'confirmed', 'page', note);
  const moved = lifecycle.transition(id, first, 'page', note);
  if (moved instanceof Refusal) return moved;
  for (const [index, state] of [...rest, 'confirmed'].entries()) {
    const settled = codedText('history.page.settled', { state });
    scheduler.schedule(TIMELINE_JOB, now + SETTLE_STEP_MS * (index + 1), { state, note: settled.text, note_code: settled.code, note_params: settled.params, cause: 'page' }, id);
  }
  return moved;
}

/** A step's note: its text, with its code and parameters when the step has a known code (a step saved before codes has text only). */
function noteOf(data: Record<string, unknown>): string | CodedText | undefined {
  const text = data['note'];
  if (typeof text !== 'string') return undefined;
  const code = data['note_code'];
  const params = textParamsSchema.safeParse(data['note_params'] ?? {});
  if (typeof code !== 'string' || !(code in SERVER_TEXTS_EN) || !params.success) return text;
  return { text, code: code as ServerTextCode, params: params.data };
}
