import { CoverageTally } from './coverage-tally.js';
import { LostAnswers } from './lost-answers.js';
import type { SavedTally } from './saved-report.js';

/** The callback mistakes counted by MistakeCounter.callback(). */
export type CallbackMistake = 'answered_non_2xx' | 'timed_out' | 'accepted_bad_signature';

/** One merchant's counts (src/report/mistake-counter.ts). */
export interface Tally {
  unauthorized: Map<string, number>;
  /** 422s by field, then by code: two levels, never a key joined with a separator a field name can hold. */
  invalid: Map<string, Map<string, number>>;
  /** How many (field, code) pairs `invalid` holds. */
  pairs: number;
  duplicate_orders: number;
  callbacks: Record<CallbackMistake | 'never_acknowledged', number>;
  /** 2xx answers the profile's acknowledgement rule did not count, and the last one's reason; reported only once there is one. */
  acknowledgements: { count: number; reason: string | undefined };
  /** Trades read more than POLLING_READS times within a minute, and how many times that was seen. */
  polled: Map<string, number>;
  coverage: CoverageTally;
  /** Whether a create was accepted (row create.accepted), kept apart so the create path reads one field. */
  accepted: boolean;
  lost: LostAnswers;
}

/** An empty tally; `changed` is told when its coverage moves. */
export function newTally(changed: () => void): Tally {
  return {
    unauthorized: new Map(),
    invalid: new Map(),
    pairs: 0,
    duplicate_orders: 0,
    callbacks: { answered_non_2xx: 0, timed_out: 0, never_acknowledged: 0, accepted_bad_signature: 0 },
    acknowledgements: { count: 0, reason: undefined },
    polled: new Map(),
    coverage: new CoverageTally(changed),
    accepted: false,
    lost: new LostAnswers(),
  };
}

/** A tally as the store keeps it (src/report/saved-report.ts): its counts and coverage marks, not what only the running process needs. */
export function savedTally(merchant: string, t: Tally): SavedTally {
  return {
    merchant,
    unauthorized: [...t.unauthorized],
    invalid: [...t.invalid].map(([field, codes]) => [field, [...codes]]),
    duplicate_orders: t.duplicate_orders,
    callbacks: { ...t.callbacks },
    acknowledgements: { count: t.acknowledgements.count, ...(t.acknowledgements.reason !== undefined ? { reason: t.acknowledgements.reason } : {}) },
    polled: [...t.polled],
    coverage: t.coverage.saved(),
    accepted: t.accepted,
  };
}

/** A tally back from what savedTally gave; no lost answer waits for its retry any more. */
export function restoredTally(kept: SavedTally, changed: () => void): Tally {
  const invalid = new Map(kept.invalid.map(([field, codes]) => [field, new Map(codes)] as const));
  return {
    unauthorized: new Map(kept.unauthorized),
    invalid,
    pairs: [...invalid.values()].reduce((sum, codes) => sum + codes.size, 0),
    duplicate_orders: kept.duplicate_orders,
    callbacks: { ...kept.callbacks },
    acknowledgements: { count: kept.acknowledgements.count, reason: kept.acknowledgements.reason },
    polled: new Map(kept.polled),
    coverage: new CoverageTally(changed, kept.coverage),
    accepted: kept.accepted,
    lost: new LostAnswers(),
  };
}
