import type { Scheduler } from '../clock/scheduler.js';
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
    const note = typeof job.data['note'] === 'string' ? job.data['note'] : undefined;
    // A refusal (the trade moved on meanwhile, or is gone) skips the step.
    lifecycle.transition(job.trade, state, 'scenario', note);
  });
}
