import type { Clock } from '../clock/clock.js';
import type { CodedText } from '../i18n/coded-text.js';
import { type Refusal, refuse } from '../refusals/refusal.js';
import type { Store } from '../store/store.js';
import type { HistoryEntry, StateName, TradeRecord } from '../trades/trade.js';
import { DEFAULT_TABLE, isFinal, type TransitionTable } from './transitions.js';

export type TransitionCause = Exclude<HistoryEntry['cause'], 'create'>;

export interface StateChange {
  trade: TradeRecord;
  from: StateName;
  to: StateName;
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
  readonly #table: () => TransitionTable;

  /** `table` gives the transition table in force (the sandbox's provider profile's, read at each move); the `sandbox` profile's when left out. */
  constructor(store: Store, clock: Clock, table: () => TransitionTable = () => DEFAULT_TABLE) {
    this.#store = store;
    this.#clock = clock;
    this.#table = table;
  }

  onChange(listener: StateChangeListener): void {
    this.#listeners.push(listener);
  }

  /** The transition table in force: which moves are allowed now (src/lifecycle/transitions.ts). */
  table(): TransitionTable {
    return this.#table();
  }

  /**
   * Moves trade `id` to `to` and returns the moved trade, or a refusal: `not_found` for an
   * unknown trade, `invalid` for a state the table does not know, `conflict` (naming the allowed
   * states) for a move the table does not allow. A refusal changes nothing. A move to a later
   * state passes through the profile's intermediate states in between (TransitionTable.route):
   * each step is a history entry of its own and tells the listeners (a callback each), all at the
   * same moment. A coded note keeps its code and parameters beside its English text in the
   * history entry.
   */
  transition(id: string, to: string, cause: TransitionCause, note?: string | CodedText): TradeRecord | Refusal {
    const trade = this.#store.trades.get(id);
    if (!trade) return refuse.notFound(`No trade with id ${JSON.stringify(id)}.`);
    const table = this.#table();
    if (!table.knows(to)) {
      return refuse.invalid('validation_failed', `Unknown state ${JSON.stringify(to)}. States are ${table.states.join(', ')}.`, [
        { field: 'state', message: `must be one of ${table.states.join(', ')}` },
      ]);
    }
    const route = table.route(trade.state, to);
    if (route === undefined) {
      const allowed = table.allowed(trade.state);
      return refuse.conflict(
        'transition_not_allowed',
        allowed.length === 0 ? `Trade ${id} is ${trade.state}, a final state: it cannot move to ${to}.` : `Trade ${id} is ${trade.state} and cannot move to ${to}. Allowed: ${allowed.join(', ')}.`,
        [...allowed],
      );
    }
    const at = this.#clock.nowIso();
    const written = typeof note === 'string' ? { note } : note !== undefined ? { note: note.text, note_code: note.code, note_params: note.params } : {};
    let current = trade;
    for (const target of route) {
      const entry: HistoryEntry = { from: current.state, to: target, at, cause, ...written };
      // A record lists the intermediate states it enters, so it loads under any profile later.
      const entered = !isFinal(target) && !current.intermediate?.includes(target) ? { intermediate: [...(current.intermediate ?? []), target] } : {};
      const updated = this.#store.trades.put({ ...current, state: target, updated_at: at, history: [...current.history, entry], ...entered });
      const change: StateChange = { trade: updated, from: current.state, to: target, cause, at };
      current = updated;
      for (const listener of this.#listeners) listener(change);
    }
    return current;
  }
}
