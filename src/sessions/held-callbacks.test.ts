import { describe, expect, it } from 'vitest';
import type { CallbackEvent } from '../store/callback-records.js';
import type { Job } from '../store/jobs.js';
import { HELD_DUE, holdCallbacks, isHeld } from './held-callbacks.js';

const event = (trade: string, seq: number, status: CallbackEvent['status'], attempts = 0): CallbackEvent => ({
  id: `cb_${trade}_${seq}`,
  trade,
  merchant: 'm',
  url: 'http://127.0.0.1:3000/',
  state: 'confirmed',
  body: '{}',
  status,
  created_at: '2026-01-01T00:00:00.000Z',
  seq,
  attempts: Array.from({ length: attempts }, (_, i) => ({ attempt: i + 1, kind: 'delivery' as const, at: '2026-01-01T00:00:00.000Z', status: 500, duration_ms: 1, response: '' })),
});
const job = (id: string, kind: string, seq: number, data: Record<string, unknown>, trade?: string): Job => ({ id, due: 1000 + seq, seq, kind, data, ...(trade ? { trade } : {}) });

describe('holdCallbacks', () => {
  it('moves callback attempts to HELD_DUE, leaves timeline steps, and holds a pending head that had no attempt scheduled', () => {
    const events = [event('a', 1, 'delivered', 1), event('a', 2, 'pending', 1), event('b', 1, 'pending', 2), event('b', 2, 'pending'), event('c', 1, 'failed', 6)];
    const jobs = [job('job_1', 'transition', 1, { state: 'confirmed' }, 'c'), job('job_2', 'callback', 2, { event: 'cb_a_2', attempt: 2 }, 'a')];
    const held = holdCallbacks(events, jobs);
    expect(held.held).toBe(2);
    expect(held.jobs[0]).toBe(jobs[0]);
    expect(held.jobs[1]).toEqual({ ...jobs[1], due: HELD_DUE, data: { event: 'cb_a_2', attempt: 2, held: true } });
    // Trade b's oldest pending event was on the wire (no job): its next attempt, the third, is held.
    expect(held.jobs[2]).toEqual({ id: 'job_held_cb_b_1', due: HELD_DUE, seq: 3, kind: 'callback', trade: 'b', data: { event: 'cb_b_1', attempt: 3, held: true } });
    expect(held.jobs.filter(isHeld)).toHaveLength(2);
    // A held time is a time a Date can still show.
    expect(new Date(HELD_DUE).toISOString()).toBe('+275760-09-13T00:00:00.000Z');
  });

  it('changes nothing when no callback is pending', () => {
    const jobs = [job('job_1', 'transition', 1, {}, 'a')];
    expect(holdCallbacks([event('a', 1, 'delivered', 1)], jobs)).toEqual({ jobs, held: 0 });
  });
});
