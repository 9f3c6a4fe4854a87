import { z } from 'zod';
import { DEFAULT_TABLE, type TransitionTable } from '../lifecycle/transitions.js';
import { stateNameSchema, toTrade, tradeSchema, tradeTypeSchema, type TradeRecord } from '../trades/trade.js';

/** A trade as the admin API shows it: the provider's Trade object plus what QA needs. */
export const adminTradeSchema = tradeSchema.extend({
  type: tradeTypeSchema,
  customer: z.string().nullable(),
  callback_url: z.string().nullable(),
  return_url: z.string().nullable(),
  scenario: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** States the trade may move to now, under the provider profile in force. */
  allowed: z.array(stateNameSchema),
});
export type AdminTrade = z.infer<typeof adminTradeSchema>;

/** `table` is the transition table in force (the sandbox's profile's), which says what `allowed` lists. */
export function toAdminTrade(record: TradeRecord, publicUrl: string, table: TransitionTable = DEFAULT_TABLE): AdminTrade {
  const trade = toTrade(record, 'get', publicUrl);
  // One literal, not `{ ...trade, type, ... }`: V8 adds keys after a spread one by one on a
  // slow path, and every transition answers with this.
  return {
    id: trade.id,
    order: trade.order,
    merchant: trade.merchant,
    state: trade.state,
    amount_cents: trade.amount_cents,
    amount_currency: trade.amount_currency,
    rate: trade.rate,
    payment_data: trade.payment_data,
    type: record.type,
    customer: record.customer ?? null,
    callback_url: record.callback_url ?? null,
    return_url: record.return_url ?? null,
    scenario: record.scenario ?? null,
    created_at: record.created_at,
    updated_at: record.updated_at,
    allowed: [...table.allowed(record.state)],
  };
}
