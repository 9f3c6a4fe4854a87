import { z } from 'zod';
import type { Store } from '../store/store.js';
import type { TransitionTable } from '../lifecycle/transitions.js';
import { stateField, TRADE_STATES, type TradeRecord } from '../trades/trade.js';

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

const queryFields = {
  merchant: blankAsAbsent(z.string().optional()),
  order: blankAsAbsent(z.string().optional()),
  limit: blankAsAbsent(pageNumber('limit', 1).max(MAX_PAGE, `limit must be at most ${MAX_PAGE}`).default(100)),
  offset: blankAsAbsent(pageNumber('offset', 0).default(0)),
};

/**
 * Query of GET /_sandbox/trades as the route declares it: `state` any well-formed state name,
 * since the states a sandbox knows follow its provider profile; the route then checks the query
 * with tradeQueryFor() of the profile in force.
 */
export const tradeQuerySchema = z.object({
  merchant: queryFields.merchant,
  state: blankAsAbsent(stateField(`must be one of ${TRADE_STATES.join(', ')}`).optional()),
  order: queryFields.order,
  limit: queryFields.limit,
  offset: queryFields.offset,
});
export type TradeQuery = z.output<typeof tradeQuerySchema>;

const strictQueries = new WeakMap<TransitionTable, z.ZodType>();

/**
 * The query of GET /_sandbox/trades under a transition table: `state` one of the states it
 * knows (the sandbox's own and the profile's intermediate ones), each problem said as the
 * declared schema says it.
 */
export function tradeQueryFor(table: TransitionTable): z.ZodType {
  let schema = strictQueries.get(table);
  if (!schema) {
    const states = table.states as [string, ...string[]];
    schema = z.object({
      merchant: queryFields.merchant,
      state: blankAsAbsent(z.enum(states, { error: `must be one of ${states.join(', ')}` }).optional()),
      order: queryFields.order,
      limit: queryFields.limit,
      offset: queryFields.offset,
    });
    strictQueries.set(table, schema);
  }
  return schema;
}

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
