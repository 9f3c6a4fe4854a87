import type { Store } from '../store/store.js';
import type { CallbackEvent } from '../store/callback-records.js';

/**
 * Callback events by trade, oldest first. Ids live here, rows in the store; each read drops
 * ids whose rows are gone (after a reset), so the index never serves stale events.
 */
export class CallbackIndex {
  readonly #store: Store;
  readonly #byTrade = new Map<string, string[]>();

  constructor(store: Store) {
    this.#store = store;
    this.rebuild();
    // A failed save puts rows back (even after a reset emptied this index): index them again.
    store.onRevert(() => this.rebuild());
  }

  /** Indexes the stored events again, from nothing (after a reset, or the rows replaced by a state import). */
  rebuild(): void {
    this.#byTrade.clear();
    const sorted = [...this.#store.callbacks.values()].sort((a, b) => a.seq - b.seq);
    for (const event of sorted) this.add(event);
  }

  add(event: CallbackEvent): void {
    const ids = this.#byTrade.get(event.trade);
    if (ids) ids.push(event.id);
    else this.#byTrade.set(event.trade, [event.id]);
  }

  /** The trade's events, oldest first. */
  forTrade(trade: string): CallbackEvent[] {
    const ids = this.#byTrade.get(trade);
    if (!ids) return [];
    const events = ids.map((id) => this.#store.callbacks.get(id)).filter((e): e is CallbackEvent => e?.trade === trade);
    if (events.length !== ids.length) {
      if (events.length === 0) this.#byTrade.delete(trade);
      else
        this.#byTrade.set(
          trade,
          events.map((e) => e.id),
        );
    }
    return events;
  }

  /** The trade's oldest event still pending: the one to send next. */
  head(trade: string): CallbackEvent | undefined {
    return this.forTrade(trade).find((e) => e.status === 'pending');
  }

  trades(): string[] {
    return [...this.#byTrade.keys()];
  }
}
