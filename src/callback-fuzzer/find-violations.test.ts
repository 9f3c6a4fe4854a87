import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findViolations } from './find-violations.js';
import type { Delivery } from './run-schedule.js';
import { scheduleSchema, type Schedule } from './schedule.js';
import { scheduleArbitrary } from './schedule-arbitrary.js';

const delivered = (step: number, state: string, event: string): Delivery => ({ step, trade: 0, state, kind: 'deliver', event, attempt: 1, status: 200 });

describe('findViolations with intermediate states', () => {
  const schedule: Schedule = {
    trades: [{ amount_cents: 31250, via: ['processing'], final: 'confirmed' }],
    steps: [
      { trade: 0, kind: 'deliver' },
      { trade: 0, state: 'processing', kind: 'deliver' },
    ],
  };
  const outOfOrder = [delivered(1, 'confirmed', 'T1#2'), delivered(2, 'processing', 'T1#1')];

  it('reports a receiver that keeps the older state that arrived last, saying the callbacks came out of order', () => {
    const violations = findViolations(schedule, { deliveries: outOfOrder, probes: [{ state: 'processing', credited_cents: 31250 }] });
    expect(violations).toEqual([
      {
        kind: 'state_back',
        cause:
          "the state of T1 went back from confirmed to processing: the callback for processing arrived after the one for confirmed (a trade's callbacks can arrive out of order) and the receiver stored the state that came last; keep a trade's newest state, and never let an older state replace a newer one",
      },
    ]);
  });

  it('passes a receiver that keeps the newest state, and flags one that credits on the intermediate state', () => {
    expect(findViolations(schedule, { deliveries: outOfOrder, probes: [{ state: 'confirmed', credited_cents: 31250 }] })).toEqual([]);
    const processingOnly: Schedule = { trades: [{ amount_cents: 500, via: ['processing'], final: 'canceled' }], steps: [{ trade: 0, state: 'processing', kind: 'deliver' }] };
    const [violation] = findViolations(processingOnly, { deliveries: [delivered(1, 'processing', 'T1#1')], probes: [{ state: 'processing', credited_cents: 500 }] });
    expect(violation).toEqual({
      kind: 'credited_unconfirmed',
      cause: 'credited 500 for T1, which was never confirmed (it received processing): credit only when a genuine callback says "confirmed"',
    });
  });

  it('keeps the cause of a state lost without an older callback as before', () => {
    const plain: Schedule = { trades: [{ amount_cents: 100, final: 'confirmed' }], steps: [{ trade: 0, kind: 'deliver' }] };
    expect(findViolations(plain, { deliveries: [delivered(1, 'confirmed', 'T1#1')], probes: [{ state: 'created', credited_cents: 100 }] })).toEqual([
      {
        kind: 'state_back',
        cause:
          'the state of T1 went back from confirmed to created: the receiver did not keep the final state of a genuine callback it answered 2xx to; store it, and never let an older state replace a newer one',
      },
    ]);
  });
});

describe('the schedules of a profile with intermediate states', () => {
  it("send each of a trade's callbacks, an intermediate one also after the final one, and replay as printed", () => {
    const schedules = fc.sample(scheduleArbitrary({ intermediate: ['processing'] }), { seed: 3, numRuns: 300 });
    let lateIntermediate = 0;
    for (const schedule of schedules) {
      expect(scheduleSchema.parse(JSON.parse(JSON.stringify(schedule)))).toEqual(schedule);
      for (const trade of schedule.trades) if (trade.final === 'confirmed') expect(trade.via).toEqual(['processing']);
      schedule.trades.forEach((_trade, index) => {
        const steps = schedule.steps.filter((step) => step.trade === index);
        const final = steps.findIndex((step) => step.state === undefined);
        if (final >= 0 && steps.slice(final).some((step) => step.state === 'processing')) lateIntermediate++;
      });
    }
    expect(lateIntermediate).toBeGreaterThan(20);
  });

  it('without intermediate states never name a state', () => {
    for (const schedule of fc.sample(scheduleArbitrary(), { seed: 3, numRuns: 100 })) {
      expect(JSON.stringify(schedule)).not.toMatch(/"via"|"state"/);
    }
  });

  it('refuse a step that names a state its trade does not pass', () => {
    const result = scheduleSchema.safeParse({ trades: [{ amount_cents: 100, final: 'confirmed' }], steps: [{ trade: 0, state: 'processing', kind: 'deliver' }] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("every step.state must be one of its trade's via states");
  });
});
