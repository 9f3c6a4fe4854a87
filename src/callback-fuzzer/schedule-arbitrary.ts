import fc from 'fast-check';
import { FINAL_STATES, STEP_KINDS, type Schedule } from './schedule.js';

/**
 * fast-check's generator of delivery schedules: one to three trades of random amounts and one
 * to eight steps mixing plain deliveries, duplicates (a step repeated), slow answers with their
 * retry, replays and forged copies of each trade's one callback. Shrinking
 * drops steps and trades and moves amounts towards 100 kopecks, so a failure ends as the
 * smallest schedule that still fails.
 */
export function scheduleArbitrary(): fc.Arbitrary<Schedule> {
  const trade = fc.record({ amount_cents: fc.integer({ min: 100, max: 10_000_000 }), final: fc.constantFrom(...FINAL_STATES) });
  const step = fc.record({ trade: fc.nat({ max: 2 }), kind: fc.constantFrom(...STEP_KINDS) });
  return fc
    .record({ trades: fc.array(trade, { minLength: 1, maxLength: 3 }), steps: fc.array(step, { minLength: 1, maxLength: 8 }) })
    .map(({ trades, steps }) => ({ trades, steps: steps.map((s) => ({ ...s, trade: s.trade % trades.length })) }));
}
