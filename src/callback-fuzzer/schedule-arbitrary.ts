import fc from 'fast-check';
import { FINAL_STATES, FORGED_KINDS, GROUP_MEMBERS, STEP_KINDS, type Schedule, type Step } from './schedule.js';

/**
 * fast-check's generator of delivery schedules: one to three trades of random amounts and one
 * to eight steps mixing plain deliveries, duplicates (a step repeated), timeouts with their
 * overlapping retry, groups of deliveries sent at once, replays and forged copies of each
 * trade's one callback (none with `forgeries: false`, for unsigned callbacks). Shrinking
 * drops steps and trades and moves amounts towards 100 kopecks, so a failure ends as the
 * smallest schedule that still fails.
 */
export function scheduleArbitrary(options: { forgeries?: boolean } = {}): fc.Arbitrary<Schedule> {
  const forgeries = options.forgeries ?? true;
  const trade = fc.record({ amount_cents: fc.integer({ min: 100, max: 10_000_000 }), final: fc.constantFrom(...FINAL_STATES) });
  const group = fc.array(fc.constantFrom(...GROUP_MEMBERS), { minLength: 2, maxLength: 3 });
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ trade: fc.nat({ max: 2 }), kind: fc.constantFrom(...STEP_KINDS.filter((kind) => kind !== 'at_once').filter((kind) => forgeries || !FORGED_KINDS.has(kind))) }),
    fc.record({ trade: fc.nat({ max: 2 }), kind: fc.constant('at_once' as const), group }),
  );
  return fc
    .record({ trades: fc.array(trade, { minLength: 1, maxLength: 3 }), steps: fc.array(step, { minLength: 1, maxLength: 8 }) })
    .map(({ trades, steps }) => ({ trades, steps: steps.map((s) => ({ ...s, trade: s.trade % trades.length })) }));
}
