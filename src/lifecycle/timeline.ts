import type { Scheduler } from '../clock/scheduler.js';
import { type CodedText, textParamsSchema } from '../i18n/coded-text.js';
import { SERVER_TEXTS_EN, type ServerTextCode } from '../i18n/server-texts-en.js';
import type { Lifecycle } from './lifecycle.js';

/** Job kind of a scheduled state change (a scenario's timeline step). */
export const TIMELINE_JOB = 'transition';

/**
 * Runs timeline steps: moves the trade when the step falls due. A step that the table no
 * longer allows (the trade was paid or canceled meanwhile) is skipped.
 */
export function registerTimeline(scheduler: Scheduler, lifecycle: Lifecycle): void {
  scheduler.handle(TIMELINE_JOB, (job) => {
    if (!job.trade) return;
    const state = String(job.data['state']);
    const note = noteOf(job.data);
    // A refusal (the trade moved on meanwhile, or is gone) skips the step.
    lifecycle.transition(job.trade, state, 'scenario', note);
  });
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
