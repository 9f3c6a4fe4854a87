import { toTrade, type TradeRecord } from './trade.js';

/**
 * The get view of each trade record as JSON text, kept while the record lives. Records are
 * never changed in place (a change stores a new record), so an entry is valid for as long
 * as its key exists, and goes with it.
 */
const cache = new WeakMap<TradeRecord, { publicUrl: string; json: string }>();

/**
 * A trade exactly as GET /api/v1/trades/:merchant/:uuid returns it, as JSON text. Polled
 * trades and their callbacks are serialized once per state instead of once per request.
 */
export function tradeJson(record: TradeRecord, publicUrl: string): string {
  const hit = cache.get(record);
  if (hit !== undefined && hit.publicUrl === publicUrl) return hit.json;
  const json = JSON.stringify(toTrade(record, 'get', publicUrl));
  cache.set(record, { publicUrl, json });
  return json;
}
