import type { TradeState } from '../trades/trade.js';

/**
 * Which state may follow which. `created` (P2P) and `ecom` wait for payment; `confirmed`,
 * `canceled` and `expired` are final. The one table every mover (scenario timeline, admin,
 * payment page) goes through.
 */
export const TRANSITIONS: Readonly<Record<TradeState, readonly TradeState[]>> = {
  created: ['confirmed', 'canceled', 'expired'],
  ecom: ['confirmed', 'canceled', 'expired'],
  confirmed: [],
  canceled: [],
  expired: [],
};

export function allowedTransitions(from: TradeState): readonly TradeState[] {
  return TRANSITIONS[from];
}

export function canTransition(from: TradeState, to: TradeState): boolean {
  return TRANSITIONS[from].includes(to);
}

export function isFinal(state: TradeState): boolean {
  return TRANSITIONS[state].length === 0;
}
