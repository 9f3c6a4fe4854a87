import { z } from 'zod';
import { stateNameSchema } from '../trades/trade.js';

/**
 * What an attempt was: a real `delivery`, a `simulated` failure (scenario `fail_first`, nothing
 * sent), the `bad_signature` copy sent before the real one, or the `duplicate` sent after a delivery.
 */
export const ATTEMPT_KINDS = ['delivery', 'simulated', 'bad_signature', 'duplicate'] as const;

/** One try at delivering a callback. */
export const attemptSchema = z.object({
  /** The X-Sandbox-Attempt value (1-based). */
  attempt: z.number().int(),
  /** Absent on records written before kinds existed: a delivery. */
  kind: z.enum(ATTEMPT_KINDS).optional(),
  at: z.string(),
  /** HTTP status of the answer, or null when none came (refused, reset, timed out). */
  status: z.number().int().nullable(),
  duration_ms: z.number(),
  /** The first 1 KiB of the answer body. */
  response: z.string(),
  error: z.string().optional(),
  /**
   * Set when the receiver answered 2xx, but not as the provider profile's acknowledgement rule
   * (`callbacks.acknowledge`, named here) asks, so the attempt failed; `error` says why. Never set
   * under the rule `2xx`.
   */
  acknowledge: z.enum(['ok-text', 'code-zero']).optional(),
  /** Something the receiver should fix although the attempt itself went as planned (e.g. it accepted a bad signature). */
  warning: z.string().optional(),
});
export type Attempt = z.infer<typeof attemptSchema>;

/** A callback: one state change of one trade, sent to its callback_url until delivered or failed. */
export const callbackEventSchema = z.object({
  /** Sent as X-Sandbox-Event-Id. */
  id: z.string(),
  trade: z.string(),
  merchant: z.string(),
  url: z.string(),
  /** The state the trade moved to: one of the sandbox's own, or a provider profile's intermediate state. */
  state: stateNameSchema,
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
export type CallbackStatus = CallbackEvent['status'];

/** Attempts that count towards the retry schedule (not the bad-signature copy or the duplicate). */
export function countedAttempts(event: CallbackEvent): number {
  return event.attempts.filter((attempt) => attempt.kind === undefined || attempt.kind === 'delivery' || attempt.kind === 'simulated').length;
}
