import { toTrade, type TradeRecord } from './trade.js';

/** How many trades' JSON is kept: the ones being polled or called back now, not a copy of the store. */
export const TRADE_JSON_CACHE_SIZE = 4096;

/**
 * The get view of the trade records serialized last, as JSON text, by trade id, oldest first
 * (a hit does not move an entry: that would cost a delete and a set on every poll).
 * Records are never changed in place (a change stores a new record), so an entry is valid
 * while its record is the one stored. The cache is bounded: a store of 100,000 trades read
 * once each does not keep 100,000 strings alive.
 */
const cache = new Map<string, { record: TradeRecord; publicUrl: string; json: string }>();

/**
 * A trade exactly as GET /api/v1/trades/:merchant/:uuid returns it, as JSON text. Polled
 * trades and their callbacks are serialized once per state instead of once per request.
 */
export function tradeJson(record: TradeRecord, publicUrl: string): string {
  const hit = cache.get(record.id);
  if (hit !== undefined && hit.record === record && hit.publicUrl === publicUrl) return hit.json;
  const json = JSON.stringify(toTrade(record, 'get', publicUrl));
  if (hit !== undefined) cache.delete(record.id);
  else if (cache.size >= TRADE_JSON_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(record.id, { record, publicUrl, json });
  return json;
}
