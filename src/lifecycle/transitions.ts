import type { StateName, TradeState } from '../trades/trade.js';

/** The states a trade waits for payment in: `created` (P2P) and `ecom`. */
export const WAITING_STATES = ['created', 'ecom'] as const satisfies readonly TradeState[];
/** The states a trade ends in, whatever the provider profile: nothing moves a trade out of them. */
export const FINAL_STATES = ['confirmed', 'canceled', 'expired'] as const satisfies readonly TradeState[];

/**
 * Which state may follow which. `created` (P2P) and `ecom` wait for payment; `confirmed`,
 * `canceled` and `expired` are final. The table of the `sandbox` profile (no intermediate
 * states); transitionTable() gives the one of any profile.
 */
export const TRANSITIONS: Readonly<Record<TradeState, readonly TradeState[]>> = {
  created: ['confirmed', 'canceled', 'expired'],
  ecom: ['confirmed', 'canceled', 'expired'],
  confirmed: [],
  canceled: [],
  expired: [],
};

/** The states a trade of the `sandbox` profile may move to from `from`. */
export function allowedTransitions(from: TradeState): readonly TradeState[] {
  return TRANSITIONS[from];
}

/** Whether the `sandbox` profile's table allows the move. */
export function canTransition(from: TradeState, to: TradeState): boolean {
  return TRANSITIONS[from].includes(to);
}

/** Whether `state` is final (confirmed, canceled, expired) under every profile. */
export function isFinal(state: StateName): boolean {
  return (FINAL_STATES as readonly string[]).includes(state);
}

/** Whether a trade in `state` still waits for payment (created, ecom) under every profile. */
export function isWaiting(state: StateName): boolean {
  return (WAITING_STATES as readonly string[]).includes(state);
}

/**
 * The transition table of a provider profile (`states.intermediate`, docs/provider-profile.md):
 * the one place that says which moves are allowed. Every mover goes through it: the admin
 * transition, a scenario's timeline step, the payment page, expiry.
 *
 * With intermediate states `[i1, i2]` a trade goes `created`/`ecom` -> `i1` -> `i2` -> `confirmed`;
 * `canceled` and `expired` may end it from a waiting state or any intermediate one. A move to a
 * later state passes through the intermediate states in between, in list order, at the same
 * moment (`route()`): each is a change of its own, in the history and as a callback, so a
 * `confirmed` asked of a `created` trade is `processing`, then `confirmed`. A state the profile
 * in force does not know (the trade moved to it under an earlier profile) may end in any final
 * state. With no intermediate states this is TRANSITIONS.
 */
export interface TransitionTable {
  /** The profile's intermediate states, in order. */
  readonly intermediate: readonly string[];
  /** Every state the profile knows, in lifecycle order: created, ecom, the intermediate ones, confirmed, canceled, expired. */
  readonly states: readonly StateName[];
  /** Whether the profile knows `state`. */
  knows(state: string): boolean;
  /** Whether `state` is one of the profile's intermediate states. */
  isIntermediate(state: string): boolean;
  /** The states a trade in `from` may be moved to now (directly or through the intermediate states between); none from a final state. */
  allowed(from: StateName): readonly StateName[];
  /** The moves that take a trade from `from` to `to`, in order (the last is `to`), or undefined when the table does not allow it. */
  route(from: StateName, to: StateName): readonly StateName[] | undefined;
}

const tables = new WeakMap<readonly string[], TransitionTable>();

function buildTable(intermediate: readonly string[]): TransitionTable {
  const states: StateName[] = [...WAITING_STATES, ...intermediate, ...FINAL_STATES];
  const ends = (from: number) => [...intermediate.slice(from), ...FINAL_STATES];
  const position = (state: string) => intermediate.indexOf(state);
  const allowed = (from: StateName): readonly StateName[] => {
    if (isFinal(from)) return [];
    if (isWaiting(from)) return ends(0);
    const at = position(from);
    // A state of an earlier profile: it can still be ended.
    return at < 0 ? FINAL_STATES : ends(at + 1);
  };
  const cache = new Map<string, readonly StateName[]>();
  const allowedOnce = (from: StateName) => {
    let list = cache.get(from);
    if (list === undefined) {
      list = allowed(from);
      if (cache.size < 64) cache.set(from, list);
    }
    return list;
  };
  return {
    intermediate,
    states,
    knows: (state) => states.includes(state),
    isIntermediate: (state) => position(state) >= 0,
    allowed: allowedOnce,
    route(from, to) {
      if (!allowedOnce(from).includes(to)) return undefined;
      if (to === 'canceled' || to === 'expired') return [to];
      // A state of an earlier profile goes straight to its final state.
      if (!isWaiting(from) && position(from) < 0) return [to];
      const start = isWaiting(from) ? 0 : position(from) + 1;
      const end = to === 'confirmed' ? intermediate.length : position(to) + 1;
      return [...intermediate.slice(start, end), ...(to === 'confirmed' ? ['confirmed'] : [])];
    },
  };
}

/** The table of the `sandbox` profile: no intermediate states. */
export const DEFAULT_TABLE: TransitionTable = buildTable([]);

/**
 * The transition table of a profile's `states.intermediate` (built once per list: a profile's
 * lists do not change, a new profile brings new ones).
 *
 * @example
 * transitionTable(['processing']).route('created', 'confirmed') // ['processing', 'confirmed']
 */
export function transitionTable(intermediate: readonly string[]): TransitionTable {
  if (intermediate.length === 0) return DEFAULT_TABLE;
  let table = tables.get(intermediate);
  if (!table) {
    table = buildTable([...intermediate]);
    tables.set(intermediate, table);
  }
  return table;
}
