import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { removableArray } from './removable-array.js';
import { FORGED_KINDS, type Schedule } from './schedule.js';
import { scheduleArbitrary } from './schedule-arbitrary.js';

/** The counterexample fast-check shrinks a failing property to, for one seed. */
function counterexample<T>(arbitrary: fc.Arbitrary<T>, holds: (value: T) => boolean, seed: number): T {
  const details = fc.check(fc.property(arbitrary, holds), { seed, numRuns: 200 });
  expect(details.failed).toBe(true);
  return details.counterexample![0];
}

/** The requests a schedule sends (a timeout step sends its abandoned attempt and the retry). */
const requests = (schedule: Schedule, trade?: number, genuine = false): number =>
  schedule.steps
    .filter((step) => (trade === undefined || step.trade === trade) && !(genuine && FORGED_KINDS.has(step.kind)))
    .reduce((n, step) => n + (step.kind === 'at_once' ? step.group.length : step.kind === 'timeout' ? 2 : 1), 0);

/** What a receiver that credits every genuine "confirmed" it receives does: credits a trade once per request. */
const creditsOnce = (schedule: Schedule): boolean =>
  schedule.trades.every((trade, index) => trade.final !== 'confirmed' || requests({ ...schedule, steps: schedule.steps.filter((s) => s.state === undefined) }, index, true) < 2);

describe('removableArray', () => {
  it('generates what fc.array generates for the same seed', () => {
    const constraints = { minLength: 1, maxLength: 8 };
    for (const seed of [1, 2, 42]) {
      expect(fc.sample(removableArray(fc.nat(), constraints), { seed, numRuns: 50 })).toEqual(fc.sample(fc.array(fc.nat(), constraints), { seed, numRuns: 50 }));
    }
  });

  it('shrinks away any item the failure does not need, the last one too', () => {
    // Fails when a "b" is in it: the smallest failing array is ["b"] (fc.array stops at ["b", "a"] for some seeds).
    for (let seed = 1; seed <= 20; seed++) {
      expect(counterexample(removableArray(fc.constantFrom('a', 'b'), { minLength: 1, maxLength: 8 }), (items) => !items.includes('b'), seed)).toEqual(['b']);
    }
  });

  it('keeps minLength items', () => {
    for (let seed = 1; seed <= 20; seed++) {
      expect(counterexample(removableArray(fc.constantFrom('a', 'b'), { minLength: 2, maxLength: 8 }), (items) => !items.includes('b'), seed)).toHaveLength(2);
    }
  });
});

describe('scheduleArbitrary shrinking', () => {
  it('shrinks a double credit to one trade and exactly two requests, also under a profile with intermediate states', () => {
    for (const intermediate of [[], ['processing']]) {
      for (let seed = 1; seed <= 40; seed++) {
        const schedule = counterexample(scheduleArbitrary({ intermediate }), creditsOnce, seed);
        expect({ seed, trades: schedule.trades.length, requests: requests(schedule) }).toEqual({ seed, trades: 1, requests: 2 });
      }
    }
  });
});
