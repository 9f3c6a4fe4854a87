import { z } from 'zod';
import type { Store } from '../store/store.js';
import { callbackEventSchema, type CallbackEvent } from '../store/callback-records.js';

export const CALLBACK_STATUSES = callbackEventSchema.shape.status.options;

/** Query of GET /_sandbox/callbacks. */
export const callbackQuerySchema = z.object({
  trade: blankAsAbsent(z.string().optional()),
  status: blankAsAbsent(z.enum(CALLBACK_STATUSES, { error: `must be one of ${CALLBACK_STATUSES.join(', ')}` }).optional()),
  limit: blankAsAbsent(
    z.coerce.number({ error: 'limit must be a whole number' }).int('limit must be a whole number').min(1, 'limit must be at least 1').max(1000, 'limit must be at most 1000').default(100),
  ),
});

/** A query parameter sent empty (`?status=`) counts as absent, so a form can send every field. */
function blankAsAbsent<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === '' ? undefined : value), schema);
}
export type CallbackQuery = z.output<typeof callbackQuerySchema>;

/** Callback events matching the filters, newest first, at most `limit`. */
export function listCallbacks(store: Store, query: CallbackQuery): CallbackEvent[] {
  const matches: CallbackEvent[] = [];
  for (const event of store.callbacks.values()) {
    if (query.trade !== undefined && event.trade !== query.trade.toLowerCase() && event.trade !== query.trade) continue;
    if (query.status !== undefined && event.status !== query.status) continue;
    matches.push(event);
  }
  // Insertion order is creation order; reversing it keeps same-time events (manual clock) newest first.
  matches.reverse();
  matches.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
  return matches.slice(0, query.limit);
}
