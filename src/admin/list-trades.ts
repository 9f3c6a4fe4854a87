import { z } from 'zod';
import type { Store } from '../store/store.js';
import { TRADE_STATES, type TradeRecord } from '../trades/trade.js';

export const MAX_PAGE = 1000;

const pageNumber = (name: string, min: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min}`);

/** A query parameter sent empty (`?state=`) counts as absent, so a form can send every field. */
function blankAsAbsent<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === '' ? undefined : value), schema);
}

/** Query of GET /_sandbox/trades. */
export const tradeQuerySchema = z.object({
  merchant: blankAsAbsent(z.string().optional()),
  state: blankAsAbsent(z.enum(TRADE_STATES, { error: `must be one of ${TRADE_STATES.join(', ')}` }).optional()),
  order: blankAsAbsent(z.string().optional()),
  limit: blankAsAbsent(pageNumber('limit', 1).max(MAX_PAGE, `limit must be at most ${MAX_PAGE}`).default(100)),
  offset: blankAsAbsent(pageNumber('offset', 0).default(0)),
});
export type TradeQuery = z.output<typeof tradeQuerySchema>;

/** Trades matching the filters, newest first, one page of them, and how many match in all. */
export function listTrades(store: Store, query: TradeQuery): { trades: TradeRecord[]; total: number } {
  const merchant = query.merchant?.toLowerCase();
  const matches: TradeRecord[] = [];
  for (const trade of store.trades.values()) {
    if (merchant !== undefined && trade.merchant.toLowerCase() !== merchant) continue;
    if (query.state !== undefined && trade.state !== query.state) continue;
    if (query.order !== undefined && trade.order !== query.order) continue;
    matches.push(trade);
  }
  // Insertion order is creation order; reversing it keeps same-time trades (manual clock) newest first.
  matches.reverse();
  matches.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
  return { trades: matches.slice(query.offset, query.offset + query.limit), total: matches.length };
}
