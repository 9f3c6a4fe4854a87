import { toTrade, type TradeRecord } from './trade.js';

/** How many polled trades' JSON is kept, and how many first reads are noted: the trades being polled now, not a copy of the store. */
export const TRADE_JSON_CACHE_SIZE = 4096;

/**
 * The get view of the trades being polled, as JSON text, by trade id, oldest first (a hit
 * does not move an entry: that would cost a delete and a set on every poll). A trade enters
 * on its second read of the same record: the first read of a trade is only noted in `seen`
 * (its id and record, no text), so a pass over many trades read once each (a report, a
 * reconciliation) serializes each of them once and leaves no text behind to outlive the
 * request. Under the load of the bench's get at 100,000 trades, a cache that kept the text
 * of every first read cost more than it saved (docs/benchmarks.md).
 * Records are never changed in place (a change stores a new record), so an entry is valid
 * while its record is the one stored. Both maps are bounded: a store of 100,000 trades read
 * once each does not keep 100,000 strings alive.
 */
const cache = new Map<string, { record: TradeRecord; publicUrl: string; json: string }>();
const seen = new Map<string, TradeRecord>();

/** Adds `key` to `map`, first dropping its oldest entry when the map is full. */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= TRADE_JSON_CACHE_SIZE) map.delete(map.keys().next().value as string);
  map.set(key, value);
}

/**
 * A trade exactly as GET /api/v1/trades/:merchant/:uuid returns it, as JSON text. Polled
 * trades and their callbacks are serialized once per state instead of once per request.
 */
export function tradeJson(record: TradeRecord, publicUrl: string): string {
  const hit = cache.get(record.id);
  if (hit !== undefined && hit.record === record && hit.publicUrl === publicUrl) return hit.json;
  const json = JSON.stringify(toTrade(record, 'get', publicUrl));
  if (hit !== undefined) {
    // The same trade in a new state (or under a new public URL): still polled, keep it.
    hit.record = record;
    hit.publicUrl = publicUrl;
    hit.json = json;
  } else if (seen.get(record.id) === record) {
    seen.delete(record.id);
    remember(cache, record.id, { record, publicUrl, json });
  } else {
    remember(seen, record.id, record);
  }
  return json;
}
