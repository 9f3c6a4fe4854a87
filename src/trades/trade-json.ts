import { toTrade, type TradeRecord } from './trade.js';

/** How many polled trades' JSON one sandbox keeps, and how many first reads it notes: the trades being polled now, not a copy of the store. */
export const TRADE_JSON_CACHE_SIZE = 4096;

/** Adds `key` to `map`, first dropping its oldest entry when the map is full. */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= TRADE_JSON_CACHE_SIZE) map.delete(map.keys().next().value as string);
  map.set(key, value);
}

/**
 * The get view of the trades one sandbox's merchants are polling, as JSON text, by trade id,
 * oldest first (a hit does not move an entry: that would cost a delete and a set on every poll).
 * Each sandbox (the default one and every workspace) has its own, so one tenant's polling
 * never pushes another's trades out, and two sandboxes that drew the same trade id (the same
 * --seed in one process) never take turns over one entry.
 *
 * A trade enters on its second read of the same record: the first read of a trade is only
 * noted in `seen` (its id and record, no text), so a pass over many trades read once each (a
 * report, a reconciliation) serializes each of them once and leaves no text behind to outlive
 * the request: keeping the text of every first read would cost more than it saves.
 * Records are never changed in place (a change stores a new record), so an entry is valid
 * while its record is the one stored. Both maps are bounded: a store of 100,000 trades read
 * once each does not keep 100,000 strings alive, and what the text costs is at most that of
 * the sandbox's own most polled trades.
 */
export class TradeJsonCache {
  readonly #cache = new Map<string, { record: TradeRecord; publicUrl: string; json: string }>();
  readonly #seen = new Map<string, TradeRecord>();

  /**
   * A trade exactly as GET /api/v1/trades/:merchant/:uuid returns it, as JSON text. Polled
   * trades and their callbacks are serialized once per state instead of once per request.
   */
  get(record: TradeRecord, publicUrl: string): string {
    const hit = this.#cache.get(record.id);
    if (hit !== undefined && hit.record === record && hit.publicUrl === publicUrl) return hit.json;
    const json = JSON.stringify(toTrade(record, 'get', publicUrl));
    if (hit !== undefined) {
      // The same trade in a new state (or under a new public URL): still polled, keep it.
      hit.record = record;
      hit.publicUrl = publicUrl;
      hit.json = json;
    } else if (this.#seen.get(record.id) === record) {
      this.#seen.delete(record.id);
      remember(this.#cache, record.id, { record, publicUrl, json });
    } else {
      remember(this.#seen, record.id, record);
    }
    return json;
  }
}
