import { z } from 'zod';
import { textParamsSchema } from '../i18n/coded-text.js';
import { COVERAGE_ROW_IDS, COVERAGE_STATUSES } from './coverage-rows.js';

const count = z.number().int().min(0);

/** One merchant's mistakes, as the sandbox saw them. */
export const merchantMistakesSchema = z.object({
  /** The merchant id as the requests named it (unknown ids included, they are a mistake too). */
  merchant: z.string(),
  /** Its name in the fixtures, when it is known. */
  name: z.string().optional(),
  /** The workspace (/w/<name>) it was seen in, in the server's root report; absent for the default sandbox. */
  workspace: z.string().optional(),
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
    /**
     * Attempts answered 2xx but not as the provider profile's acknowledgement rule asks
     * (`callbacks.acknowledge` ok-text or code-zero, e.g. `ok` for `OK`): the callback was not
     * acknowledged. Absent until one is seen (never under the rule `2xx`).
     */
    wrong_acknowledgement: count.optional(),
    /** Why the last of them did not acknowledge, in the rule's words. */
    wrong_acknowledgement_reason: z.string().optional(),
  }),
});
export type MerchantMistakes = z.infer<typeof merchantMistakesSchema>;

/** Advice that is not a mistake: not in `total`, never a JUnit failure. */
export const reportNoteSchema = z.object({
  merchant: z.string(),
  name: z.string().optional(),
  /** The workspace (/w/<name>) it was seen in, in the server's root report; absent for the default sandbox. */
  workspace: z.string().optional(),
  /** `sustained_polling`: more than 60 reads of one trade within a minute of real time. */
  id: z.literal('sustained_polling'),
  /** The trade it is about. */
  trade: z.string(),
  /** How many times it was seen (windows of a minute). */
  count,
  detail: z.string(),
  /** The detail's code (src/i18n/server-texts-en.ts) and the values it names: the dashboard says it in its language. */
  detail_code: z.string().optional(),
  detail_params: textParamsSchema.optional(),
});
export type ReportNote = z.infer<typeof reportNoteSchema>;

/** One row of the integration coverage: what the merchant's tests met, and how they answered. */
export const coverageRowSchema = z.object({
  id: z.enum(COVERAGE_ROW_IDS),
  /** not_seen, seen, handled or wrong. */
  status: z.enum(COVERAGE_STATUSES),
  /** The trade that set the status (for wrong: the one answered wrong). */
  trade: z.string().optional(),
  /** What happened, in one line (for wrong: the cause). */
  detail: z.string().optional(),
  /** The detail's code (src/i18n/server-texts-en.ts), when it has one, and the values it names: the dashboard says it in its language; a detail without a code is shown as it is. */
  detail_code: z.string().optional(),
  detail_params: textParamsSchema.optional(),
  /** In coverage_merged: the workspace whose row set the status (absent: the default one). */
  workspace: z.string().optional(),
});
export type CoverageRow = z.infer<typeof coverageRowSchema>;

/** One merchant's coverage: every row, in the documented order. */
export const merchantCoverageSchema = z.object({
  merchant: z.string(),
  name: z.string().optional(),
  /** The workspace (/w/<name>) it was seen in, in the server's root report; absent for the default sandbox. */
  workspace: z.string().optional(),
  /**
   * `checked`: the sandbox runs with a balance probe (serve --probe), so a callback row is
   * handled only when the probe showed the right credit; `not_checked`: rows were judged by the
   * HTTP answers alone. Absent in reports of sandboxes older than the probe.
   */
  credits: z.enum(['checked', 'not_checked']).optional(),
  rows: z.array(coverageRowSchema),
});
export type MerchantCoverage = z.infer<typeof merchantCoverageSchema>;

/** GET /_sandbox/report: the integration report. */
export const integrationReportSchema = z.object({
  /** Every mistake of every merchant added up (notes are not mistakes). */
  total: count,
  /** Merchants with at least one mistake, by id. */
  merchants: z.array(merchantMistakesSchema),
  /** Advice, not mistakes (sustained polling). */
  notes: z.array(reportNoteSchema),
  /** Per known merchant that used the sandbox: which situations its tests met, and how they answered. */
  coverage: z.array(merchantCoverageSchema),
  /**
   * At the root of a server whose workspaces reported too: per merchant, over every workspace,
   * each row at the highest status any workspace reached (wrong above handled above seen above
   * not_seen), naming that workspace; what a sharded suite met as a whole.
   */
  coverage_merged: z.array(merchantCoverageSchema).optional(),
});
export type IntegrationReport = z.infer<typeof integrationReportSchema>;
