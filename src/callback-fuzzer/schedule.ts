import { z } from 'zod';

/**
 * The states a fuzzed trade ends in. As with the sandbox, a trade's only callback is its move
 * from `created` (or `ecom`) to a final state: creating a trade sends none (docs/callbacks.md).
 */
export const FINAL_STATES = ['confirmed', 'canceled', 'expired'] as const;

/**
 * How one step of a schedule reaches the receiver:
 * - `deliver`: the event as the sandbox sends it (right signature, the event's own X-Sandbox-Event-Id);
 * - `slow`: delivered, but its answer is treated as too late (past the callback timeout), so
 *   the same event is sent again at once as the next attempt (the retry);
 * - `replay`: the same body under a new event id, signed afresh (what the sandbox's replay sends);
 * - `wrong_signature`, `no_signature`, `other_merchant`: forged copies (X-Signature made with a
 *   wrong key, absent, or made with another merchant's secret).
 */
export const STEP_KINDS = ['deliver', 'slow', 'replay', 'wrong_signature', 'no_signature', 'other_merchant'] as const;
export type StepKind = (typeof STEP_KINDS)[number];
export const FORGED_KINDS: ReadonlySet<StepKind> = new Set(['wrong_signature', 'no_signature', 'other_merchant']);

export const fuzzTradeSchema = z.strictObject({
  amount_cents: z.number().int().min(1).max(1_000_000_000),
  final: z.enum(FINAL_STATES),
});

export const stepSchema = z.strictObject({
  /** Index into `trades`. */
  trade: z.number().int().min(0),
  kind: z.enum(STEP_KINDS),
});

/** A delivery schedule: trades and the callbacks that reach the receiver, in order. */
export const scheduleSchema = z
  .strictObject({
    trades: z.array(fuzzTradeSchema).min(1).max(10),
    steps: z.array(stepSchema).min(1).max(50),
  })
  .refine((s) => s.steps.every((step) => step.trade < s.trades.length), 'every step.trade must be an index into trades');

export type FuzzTrade = z.infer<typeof fuzzTradeSchema>;
export type Step = z.infer<typeof stepSchema>;
export type Schedule = z.infer<typeof scheduleSchema>;
