import { z } from 'zod';

/** The sandbox's own guidance: read one trade at most once per this many ms (of the sandbox clock); prefer callbacks. */
export const POLL_INTERVAL_MS = 1_000;

const count = z.number().int().min(0);

/** One merchant's mistakes, as the sandbox saw them. */
export const merchantMistakesSchema = z.object({
  /** The merchant id as the requests named it (unknown ids included, they are a mistake too). */
  merchant: z.string(),
  /** Its name in the fixtures, when it is known. */
  name: z.string().optional(),
  /** Every mistake below added up. */
  total: count,
  /** 401 answers by cause: the error code (missing_auth_header, wrong_auth_header, invalid_token, signature_mismatch, unknown_merchant). */
  unauthorized: z.array(z.object({ cause: z.string(), count })),
  /** 422 answers by field and code (duplicate orders are counted apart). */
  invalid: z.array(z.object({ field: z.string(), code: z.string(), count })),
  /** Creates refused because the merchant already used the order (422 duplicate_order). */
  duplicate_orders: count,
  callbacks: z.object({
    /** Attempts the receiver answered with a status other than 2xx (redirects included). */
    answered_non_2xx: count,
    /** Attempts with no complete answer within the callback timeout. */
    timed_out: count,
    /** Callbacks that were never acknowledged: failed after the last retry. */
    never_acknowledged: count,
    /** Copies with a wrong X-Signature (scenario chaos) that the receiver accepted with a 2xx. */
    accepted_bad_signature: count,
  }),
  /** Reads of one trade sooner than POLL_INTERVAL_MS after the previous read of it. */
  fast_polls: count,
});
export type MerchantMistakes = z.infer<typeof merchantMistakesSchema>;

/** GET /_sandbox/report: the integration report. */
export const integrationReportSchema = z.object({
  /** The documented polling rate: one read of a trade per this many ms. */
  poll_interval_ms: z.number().int(),
  /** Every mistake of every merchant added up. */
  total: count,
  /** Merchants with at least one mistake, by id. */
  merchants: z.array(merchantMistakesSchema),
});
export type IntegrationReport = z.infer<typeof integrationReportSchema>;
