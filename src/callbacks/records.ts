import { z } from 'zod';
import { tradeStateSchema } from '../trades/trade.js';

/** One try at delivering a callback. */
export const attemptSchema = z.object({
  attempt: z.number().int(),
  at: z.string(),
  /** HTTP status of the answer, or null when none came (refused, reset, timed out). */
  status: z.number().int().nullable(),
  duration_ms: z.number(),
  /** The first 1 KiB of the answer body. */
  response: z.string(),
  error: z.string().optional(),
});
export type Attempt = z.infer<typeof attemptSchema>;

/** A callback: one state change of one trade, sent to its callback_url until delivered or failed. */
export const callbackEventSchema = z.object({
  /** Sent as X-Sandbox-Event-Id. */
  id: z.string(),
  trade: z.string(),
  merchant: z.string(),
  url: z.string(),
  state: tradeStateSchema,
  /** The raw JSON body, exactly as sent and signed. */
  body: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  created_at: z.string(),
  /** Order of the event among its trade's events. */
  seq: z.number().int(),
  attempts: z.array(attemptSchema),
  /** Set on a replay: the event it repeats. */
  replay_of: z.string().optional(),
});
export type CallbackEvent = z.infer<typeof callbackEventSchema>;
