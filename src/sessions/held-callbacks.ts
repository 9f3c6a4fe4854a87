import { CALLBACK_JOB } from '../callbacks/callback-dispatcher.js';
import type { Scheduler } from '../clock/scheduler.js';
import type { Clock } from '../clock/clock.js';
import { type CallbackEvent, countedAttempts } from '../store/callback-records.js';
import type { Job } from '../store/jobs.js';

/**
 * When a held callback attempt falls due: the latest time a JavaScript Date can hold (year
 * 275760), which no clock advance reaches. A held attempt is an ordinary stored job of the
 * callback kind, so a restart keeps it held (the dispatcher schedules only events that have no
 * job), and the trade's later events wait behind it, in order, as they wait behind any pending one.
 */
export const HELD_DUE = 8_640_000_000_000_000;

/** Whether a job is a callback attempt held by a fork or an import (data.held). */
export const isHeld = (job: Job): boolean => job.kind === CALLBACK_JOB && job.data['held'] === true;

/**
 * The jobs of a state document with its pending callbacks held: each callback attempt scheduled
 * is moved to HELD_DUE and marked `held`, and each trade's oldest pending event that has no
 * attempt scheduled (it was on the wire at export) gets a held one. Other jobs stay as they are.
 */
export function holdCallbacks(events: readonly CallbackEvent[], jobs: readonly Job[]): { jobs: Job[]; held: number } {
  const scheduled = new Set<string>();
  let seq = 0;
  const out = jobs.map((job) => {
    seq = Math.max(seq, job.seq);
    if (job.kind !== CALLBACK_JOB) return job;
    scheduled.add(String(job.data['event']));
    return { ...job, due: HELD_DUE, data: { ...job.data, held: true } };
  });
  const heads = new Map<string, CallbackEvent>();
  for (const event of events) {
    if (event.status !== 'pending') continue;
    const head = heads.get(event.trade);
    if (head === undefined || event.seq < head.seq) heads.set(event.trade, event);
  }
  for (const head of heads.values()) {
    if (scheduled.has(head.id)) continue;
    scheduled.add(head.id);
    out.push({ id: `job_held_${head.id}`, due: HELD_DUE, seq: ++seq, kind: CALLBACK_JOB, trade: head.trade, data: { event: head.id, attempt: countedAttempts(head) + 1, held: true } });
  }
  return { jobs: out, held: scheduled.size };
}

/**
 * Sends the held callbacks now: each held attempt is scheduled again at the clock's time, in
 * the order they were held. Returns how many; the caller commits.
 */
export function resumeHeld(sandbox: { scheduler: Scheduler; clock: Clock }): number {
  const held = sandbox.scheduler.pending(isHeld);
  if (held.length === 0) return 0;
  sandbox.scheduler.cancel(isHeld);
  const now = sandbox.clock.now();
  for (const job of held) {
    const { held: _held, ...data } = job.data;
    sandbox.scheduler.schedule(CALLBACK_JOB, now, data, job.trade);
  }
  return held.length;
}
