import type { Clock } from '../clock/clock.js';
import type { CodedText } from '../i18n/coded-text.js';
import { type Refusal, refuse } from '../refusals/refusal.js';
import type { Store } from '../store/store.js';
import { TRADE_STATES, type HistoryEntry, type TradeRecord, type TradeState } from '../trades/trade.js';
import { allowedTransitions, canTransition } from './transitions.js';

export type TransitionCause = Exclude<HistoryEntry['cause'], 'create'>;

export interface StateChange {
  trade: TradeRecord;
  from: TradeState;
  to: TradeState;
  cause: TransitionCause;
  at: string;
}

export type StateChangeListener = (change: StateChange) => void;

/**
 * Moves trades between states through the transition table, records every move in the
 * trade's history, and tells listeners (callbacks) about it. Plain TypeScript: callers
 * commit the store, and the HTTP layer turns a refusal into a status.
 */
export class Lifecycle {
  readonly #store: Store;
  readonly #clock: Clock;
  readonly #listeners: StateChangeListener[] = [];

  constructor(store: Store, clock: Clock) {
    this.#store = store;
    this.#clock = clock;
  }

  onChange(listener: StateChangeListener): void {
    this.#listeners.push(listener);
  }

  /**
   * Moves trade `id` to `to` and returns the moved trade, or a refusal: `not_found` for an
   * unknown trade, `invalid` for an unknown state, `conflict` (naming the allowed states) for a
   * move the table does not allow. A refusal changes nothing. A coded note keeps its code and
   * parameters beside its English text in the history entry.
   */
  transition(id: string, to: string, cause: TransitionCause, note?: string | CodedText): TradeRecord | Refusal {
    const trade = this.#store.trades.get(id);
    if (!trade) return refuse.notFound(`No trade with id ${JSON.stringify(id)}.`);
    if (!(TRADE_STATES as readonly string[]).includes(to)) {
      return refuse.invalid('validation_failed', `Unknown state ${JSON.stringify(to)}. States are ${TRADE_STATES.join(', ')}.`, [
        { field: 'state', message: `must be one of ${TRADE_STATES.join(', ')}` },
      ]);
    }
    const target = to as TradeState;
    if (!canTransition(trade.state, target)) {
      const allowed = allowedTransitions(trade.state);
      return refuse.conflict(
        'transition_not_allowed',
        allowed.length === 0
          ? `Trade ${id} is ${trade.state}, a final state: it cannot move to ${target}.`
          : `Trade ${id} is ${trade.state} and cannot move to ${target}. Allowed: ${allowed.join(', ')}.`,
        [...allowed],
      );
    }
    const at = this.#clock.nowIso();
    const written = typeof note === 'string' ? { note } : note !== undefined ? { note: note.text, note_code: note.code, note_params: note.params } : {};
    const entry: HistoryEntry = { from: trade.state, to: target, at, cause, ...written };
    const updated = this.#store.trades.put({ ...trade, state: target, updated_at: at, history: [...trade.history, entry] });
    const change: StateChange = { trade: updated, from: trade.state, to: target, cause, at };
    for (const listener of this.#listeners) listener(change);
    return updated;
  }
}
