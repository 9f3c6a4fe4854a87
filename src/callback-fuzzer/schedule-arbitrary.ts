import fc from 'fast-check';
import { removableArray } from './removable-array.js';
import { FINAL_STATES, FORGED_KINDS, type FuzzTrade, GROUP_MEMBERS, STEP_KINDS, type Schedule, type Step } from './schedule.js';

/**
 * fast-check's generator of delivery schedules: one to three trades of random amounts and one
 * to eight steps mixing plain deliveries, duplicates (a step repeated), timeouts with their
 * overlapping retry, groups of deliveries sent at once, replays and forged copies of each
 * trade's callbacks (none with `forgeries: false`, for unsigned callbacks). Shrinking
 * drops steps and trades (any one of them, removableArray) and moves amounts towards 100 kopecks,
 * so a failure ends as the smallest schedule that still fails: a receiver that credits every
 * delivery is shown two deliveries of one event.
 *
 * With a provider profile's intermediate states (`intermediate`, e.g. `['processing']`) a trade
 * has a callback for each state it passes: a confirmed trade passes all of them, a canceled or
 * expired one the first few or none. Each step sends one of the trade's callbacks, in any order,
 * so an intermediate state's callback also arrives after the final one. Without intermediate
 * states the schedules are the same as ever for the same seed.
 */
export function scheduleArbitrary(options: { forgeries?: boolean; intermediate?: readonly string[] } = {}): fc.Arbitrary<Schedule> {
  const forgeries = options.forgeries ?? true;
  const intermediate = options.intermediate ?? [];
  const group = fc.array(fc.constantFrom(...GROUP_MEMBERS), { minLength: 2, maxLength: 3 });
  const kinds = STEP_KINDS.filter((kind) => kind !== 'at_once').filter((kind) => forgeries || !FORGED_KINDS.has(kind));
  if (intermediate.length === 0) {
    const trade = fc.record({ amount_cents: fc.integer({ min: 100, max: 10_000_000 }), final: fc.constantFrom(...FINAL_STATES) });
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ trade: fc.nat({ max: 2 }), kind: fc.constantFrom(...kinds) }),
      fc.record({ trade: fc.nat({ max: 2 }), kind: fc.constant('at_once' as const), group }),
    );
    return fc
      .record({ trades: removableArray(trade, { minLength: 1, maxLength: 3 }), steps: removableArray(step, { minLength: 1, maxLength: 8 }) })
      .map(({ trades, steps }) => ({ trades, steps: steps.map((s) => ({ ...s, trade: s.trade % trades.length })) }));
  }
  const trade = fc
    .record({ amount_cents: fc.integer({ min: 100, max: 10_000_000 }), passed: fc.nat({ max: intermediate.length }), final: fc.constantFrom(...FINAL_STATES) })
    .map(({ amount_cents, passed, final }): FuzzTrade => {
      const via = final === 'confirmed' ? [...intermediate] : intermediate.slice(0, passed);
      return via.length > 0 ? { amount_cents, via, final } : { amount_cents, final };
    });
  const event = fc.nat({ max: intermediate.length });
  const step = fc.oneof(
    fc.record({ trade: fc.nat({ max: 2 }), event, kind: fc.constantFrom(...kinds) }),
    fc.record({ trade: fc.nat({ max: 2 }), event, kind: fc.constant('at_once' as const), group }),
  );
  return fc.record({ trades: removableArray(trade, { minLength: 1, maxLength: 3 }), steps: removableArray(step, { minLength: 1, maxLength: 8 }) }).map(({ trades, steps }) => ({
    trades,
    steps: steps.map(({ event: pick, ...s }): Step => {
      const index = s.trade % trades.length;
      const via = trades[index]?.via ?? [];
      // Which of the trade's callbacks: one of its intermediate states, or (past them) its final state.
      const state = via[pick % (via.length + 1)];
      return state === undefined ? { ...s, trade: index } : s.kind === 'at_once' ? { trade: index, state, kind: s.kind, group: s.group } : { trade: index, state, kind: s.kind };
    }),
  }));
}
