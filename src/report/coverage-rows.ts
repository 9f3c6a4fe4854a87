/** The rows of the integration coverage, in the order every form lists them. */
export const COVERAGE_ROW_IDS = [
  'create.accepted',
  'create.refused_401',
  'create.refused_422',
  'create.duplicate_order',
  'create.lost_answer',
  'callback.confirmed',
  'callback.canceled',
  'callback.expired',
  'callback.retry_after_failure',
  'callback.duplicate',
  'callback.overlapping',
  'callback.bad_signature',
  'payment.3ds_declined',
] as const;
export type CoverageRowId = (typeof COVERAGE_ROW_IDS)[number];

/** not_seen: the tests never met it; seen: met, not (yet) answered; handled: answered right; wrong: answered wrong. */
export const COVERAGE_STATUSES = ['not_seen', 'seen', 'handled', 'wrong'] as const;
export type CoverageStatus = (typeof COVERAGE_STATUSES)[number];

/** A status replaces another only when it ranks higher: a wrong answer is never hidden by a later right one. */
export const STATUS_RANK: Record<CoverageStatus, number> = { not_seen: 0, seen: 1, handled: 2, wrong: 3 };

export interface CoverageRowInfo {
  /** What the row is about, in a few words (the JUnit test case's name after the id). */
  title: string;
  /** How a test meets it. */
  exercise: string;
  /** True for the rows that are only ever met (`seen` is all they can be): they have no handled or wrong. */
  seenOnly: boolean;
}

/** What each row means; docs/integration-report.md says the same at length. */
export const COVERAGE_ROWS: Record<CoverageRowId, CoverageRowInfo> = {
  'create.accepted': { title: 'a create accepted', exercise: 'create a trade', seenOnly: true },
  'create.refused_401': {
    title: 'a create refused with 401',
    exercise: 'an order starting with sbx-unauth-, or a create with a wrong token sent with the header X-Sandbox-Deliberate (neither is counted as a mistake)',
    seenOnly: true,
  },
  'create.refused_422': {
    title: 'a create refused with 422',
    exercise: 'an order starting with sbx-reject-, or a create with an invalid field sent with the header X-Sandbox-Deliberate (neither is counted as a mistake)',
    seenOnly: true,
  },
  'create.duplicate_order': {
    title: 'an order used twice',
    exercise: 'create the same order twice, the second time with the header X-Sandbox-Deliberate (not counted as a mistake), or retry an sbx-lost- order',
    seenOnly: true,
  },
  'create.lost_answer': { title: 'a lost create answer retried with the same order', exercise: 'create an order starting with sbx-lost- or sbx-late-', seenOnly: false },
  'callback.confirmed': { title: 'a confirmed callback acknowledged', exercise: 'confirm a trade with a callback_url (payment page, dashboard, or sbx-confirm-)', seenOnly: false },
  'callback.canceled': { title: 'a canceled callback acknowledged', exercise: 'cancel a trade with a callback_url (payment page, dashboard, or sbx-cancel-)', seenOnly: false },
  'callback.expired': { title: 'an expired callback acknowledged', exercise: 'let a trade with a callback_url expire (dashboard, or sbx-expire-)', seenOnly: false },
  'callback.retry_after_failure': { title: 'a callback acknowledged after a failed attempt', exercise: 'an order starting with sbx-flaky-, or answer one attempt non-2xx', seenOnly: false },
  'callback.duplicate': { title: 'a callback delivered twice, acknowledged both times', exercise: 'an order starting with sbx-dup-', seenOnly: false },
  'callback.overlapping': { title: 'overlapping callbacks acknowledged', exercise: 'an order starting with sbx-race-', seenOnly: false },
  'callback.bad_signature': { title: 'a forged callback refused with 4xx', exercise: 'an order starting with sbx-badsig-', seenOnly: false },
  'payment.3ds_declined': { title: 'a payer failed 3-D Secure', exercise: 'pay an ecom trade with the 3-D Secure test card and a wrong code, or cancel the check', seenOnly: true },
};

/** Whether a row is as far as it can go: handled, or seen for a row that is only ever seen. */
export function rowDone(id: CoverageRowId, status: CoverageStatus): boolean {
  return status === 'handled' || (COVERAGE_ROWS[id].seenOnly && status === 'seen');
}
