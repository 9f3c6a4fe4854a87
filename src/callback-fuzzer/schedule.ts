import { z } from 'zod';

/**
 * The states a fuzzed trade ends in. As with the sandbox, a trade's only callback is its move
 * from `created` (or `ecom`) to a final state: creating a trade sends none (docs/callbacks.md).
 */
export const FINAL_STATES = ['confirmed', 'canceled', 'expired'] as const;

/**
 * How one step of a schedule reaches the receiver:
 * - `deliver`: the event as the sandbox sends it (right signature, the event's own X-Sandbox-Event-Id);
 * - `timeout`: the event, abandoned at the callback timeout while the receiver still works on it,
 *   and at once its retry (same event id, next attempt): the two overlap at the receiver;
 * - `at_once`: a group of two or three deliveries sent at the same moment (see `group`), all on
 *   the wire before any is answered;
 * - `replay`: the same body under a new event id, signed afresh (what the sandbox's replay sends);
 * - `wrong_signature`, `no_signature`, `other_merchant`: forged copies (X-Signature made with a
 *   wrong key, absent, or made with another merchant's secret).
 */
export const STEP_KINDS = ['deliver', 'timeout', 'at_once', 'replay', 'wrong_signature', 'no_signature', 'other_merchant'] as const;
export type StepKind = (typeof STEP_KINDS)[number];
export const FORGED_KINDS: ReadonlySet<StepKind> = new Set(['wrong_signature', 'no_signature', 'other_merchant']);
/** What each delivery of an `at_once` group is: the event again, or a replay of it. */
export const GROUP_MEMBERS = ['deliver', 'replay'] as const;

export const fuzzTradeSchema = z.strictObject({
  amount_cents: z.number().int().min(1).max(1_000_000_000),
  final: z.enum(FINAL_STATES),
});

const trade = z.number().int().min(0).meta({ description: 'Index into trades.' });

export const stepSchema = z.union([
  z.strictObject({ trade, kind: z.enum(STEP_KINDS).exclude(['at_once']) }),
  z.strictObject({
    trade,
    kind: z.literal('at_once'),
    /** The deliveries sent at the same moment, e.g. ["deliver", "deliver"] or ["deliver", "replay"]. */
    group: z.array(z.enum(GROUP_MEMBERS)).min(2).max(3),
  }),
]);

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
