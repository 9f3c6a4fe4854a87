import { z } from 'zod';
import { STATE_NAME, TRADE_STATES } from '../trades/trade.js';

/**
 * The states a fuzzed trade ends in. As with the sandbox, creating a trade sends no callback
 * (docs/callbacks.md): a trade's callbacks are its moves, to each intermediate state of the
 * provider profile it passes (`via`, none under most profiles) and then to its final state.
 */
export const FINAL_STATES = ['confirmed', 'canceled', 'expired'] as const;

/** A provider profile's intermediate state (states.intermediate), e.g. processing. */
const intermediateState = z
  .string()
  .regex(STATE_NAME, 'must be a lowercase state name, e.g. processing')
  .refine((name) => !(TRADE_STATES as readonly string[]).includes(name), `must be an intermediate state, not one of ${TRADE_STATES.join(', ')}`);

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
  /** The intermediate states the trade passes before its final one, in order, each a callback of its own; left out, none. */
  via: z.array(intermediateState).min(1).max(5).optional(),
  final: z.enum(FINAL_STATES),
});

const trade = z.number().int().min(0).meta({ description: 'Index into trades.' });
/** Which of the trade's callbacks the step sends: one of its `via` states; left out, its final state. */
const state = intermediateState.optional();

export const stepSchema = z.union([
  z.strictObject({ trade, state, kind: z.enum(STEP_KINDS).exclude(['at_once']) }),
  z.strictObject({
    trade,
    state,
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
  .refine((s) => s.steps.every((step) => step.trade < s.trades.length), 'every step.trade must be an index into trades')
  .refine((s) => s.steps.every((step) => step.state === undefined || (s.trades[step.trade]?.via ?? []).includes(step.state)), "every step.state must be one of its trade's via states");

export type FuzzTrade = z.infer<typeof fuzzTradeSchema>;
export type Step = z.infer<typeof stepSchema>;
export type Schedule = z.infer<typeof scheduleSchema>;
