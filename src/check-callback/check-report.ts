import { z } from 'zod';
import { tradeStateSchema } from '../trades/trade.js';

/** The callbacks a receiver check sends, in this order. */
export const CHECK_CASES = ['valid', 'duplicate', 'older_state', 'bad_signature', 'no_signature'] as const;
export type CheckCase = (typeof CHECK_CASES)[number];

/**
 * `ok`: the receiver did the right thing. `warning`: acceptable, but worth changing.
 * `flagged`: a defect to fix (the CLI exits 1). `skipped`: not sent (the receiver did not
 * answer the first callback at all).
 */
export const CHECK_VERDICTS = ['ok', 'warning', 'flagged', 'skipped'] as const;
export type CheckVerdict = (typeof CHECK_VERDICTS)[number];

/** What one case sent and how the receiver answered. */
export const checkCaseResultSchema = z.object({
  case: z.enum(CHECK_CASES),
  /** In words, e.g. "the same callback again". */
  title: z.string(),
  /** The answer a correct receiver gives, e.g. "2xx". */
  expected: z.string(),
  sent: z.object({
    trade: z.string(),
    state: tradeStateSchema,
    /** The event id (X-Sandbox-Event-Id; webhook-id under Standard Webhooks), sent or not. */
    event_id: z.string(),
    /** What the profile's signature header (X-Signature under the sandbox's) held: the right signature, a wrong one, or no header at all. */
    signature: z.enum(['valid', 'wrong', 'missing']),
  }),
  /** HTTP status of the answer, or null when none came (or nothing was sent). */
  status: z.number().int().nullable(),
  duration_ms: z.number(),
  /** The first 1 KiB of the answer body. */
  response: z.string(),
  /** Why no usable answer came (refused, timed out, redirected...). */
  error: z.string().optional(),
  verdict: z.enum(CHECK_VERDICTS),
  /** What happened and, unless the verdict is ok, what to change. */
  message: z.string(),
});
export type CheckCaseResult = z.infer<typeof checkCaseResultSchema>;

/** The result of checking one callback receiver. */
export const checkReportSchema = z.object({
  url: z.string(),
  merchant: z.string(),
  /** True when no case was flagged (warnings allowed). */
  passed: z.boolean(),
  flagged: z.number().int(),
  warnings: z.number().int(),
  cases: z.array(checkCaseResultSchema),
});
export type CheckReport = z.infer<typeof checkReportSchema>;
