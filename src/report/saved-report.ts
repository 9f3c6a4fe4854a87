import { z } from 'zod';
import { textParamsSchema } from '../i18n/coded-text.js';
import { COVERAGE_ROW_IDS } from './coverage-rows.js';

const count = z.number().int().min(0);
const counts = z.array(z.tuple([z.string(), count]));

/** One coverage row's mark as kept (src/report/coverage-tally.ts). */
const savedMarkSchema = z.object({
  status: z.enum(['seen', 'handled', 'wrong']),
  trade: z.string().optional(),
  detail: z.string().optional(),
  detail_code: z.string().optional(),
  detail_params: textParamsSchema.optional(),
});

/** One merchant's counts as kept: what its report and coverage are made from. */
const savedTallySchema = z.object({
  merchant: z.string(),
  unauthorized: counts,
  /** By field, then by code. */
  invalid: z.array(z.tuple([z.string(), counts])),
  duplicate_orders: count,
  callbacks: z.object({ answered_non_2xx: count, timed_out: count, never_acknowledged: count, accepted_bad_signature: count }),
  acknowledgements: z.object({ count, reason: z.string().optional() }),
  polled: counts,
  coverage: z.array(z.tuple([z.enum(COVERAGE_ROW_IDS), savedMarkSchema])),
  accepted: z.boolean(),
});
export type SavedTally = z.infer<typeof savedTallySchema>;

/**
 * The integration report's counts as a sandbox keeps them in its store (the meta row `report`),
 * so a durable sandbox (serve --data) reports the same after a restart. What only matters while
 * the process runs is not kept: the read times behind sustained polling, lost answers still
 * waiting for their retry, the trades created from the dashboard.
 */
export const savedReportSchema = z.object({
  version: z.literal(1),
  merchants: z.array(savedTallySchema),
});
export type SavedReport = z.infer<typeof savedReportSchema>;
