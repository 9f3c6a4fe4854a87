import type { CheckCase, CheckReport } from '../check-callback/check-report.js';
import type { ViolationKind } from '../callback-fuzzer/find-violations.js';
import type { FuzzReport } from '../callback-fuzzer/fuzz-receiver.js';
import { COVERAGE_ROWS, rowDone } from '../report/coverage-rows.js';
import type { CoverageRow, MerchantCoverage } from '../report/report-schema.js';
import { type GoLiveOwnRowId, isGoLiveOwnRow } from './go-live-own-rows.js';
import { GO_LIVE_ROW_IDS, type GoLiveChecklist, type GoLiveEvidence, type GoLiveRow, type GoLiveRowId, type GoLiveStatus } from './go-live-schema.js';

/** What was learned of the merchant's receiver, when one was given. */
export interface ReceiverFindings {
  url: string;
  /** The balance probe the fuzzer read. */
  probe?: string;
  seed: number;
  runs: number;
  check: CheckReport;
  /** The fuzzer's report; undefined when it could not run (`fuzzError` says why). */
  fuzz: FuzzReport | undefined;
  /** Why the fuzzer stopped: the balance probe did not keep its contract. */
  fuzzError?: string;
}

export interface ChecklistInput {
  merchant: string;
  name?: string | undefined;
  /** The merchant's coverage, as the report has it (merged over workspaces at a server's root); undefined: its tests never used the sandbox. */
  coverage: MerchantCoverage | undefined;
  otherMerchants?: readonly string[];
  /** Whether the sandbox reads a balance probe (serve --probe). */
  sandboxProbe: boolean;
  receiver?: ReceiverFindings | undefined;
}

/** The checklist's own two rows (./go-live-own-rows.ts). */
const OWN_ROWS: Record<GoLiveOwnRowId, { title: string; exercise: string }> = {
  'callback.older_state': {
    title: 'an older state after a newer one, ignored',
    exercise: 'give go-live --receiver <url>: it sends your receiver "created" after "confirmed" for one trade',
  },
  'credits.checked': {
    title: 'credits read from your balance probe',
    exercise: 'give go-live --probe <url> (your balance probe, read by the fuzzer), or run the sandbox with serve --probe <url>',
  },
};

/** The rows a receiver check also exercises: their hint names go-live --receiver after the coverage's own. */
const RECEIVER_ROWS: ReadonlySet<GoLiveRowId> = new Set(['callback.confirmed', 'callback.duplicate', 'callback.overlapping', 'callback.bad_signature']);

/** The row each check case shows. */
const CASE_ROW: Record<CheckCase, GoLiveRowId> = {
  valid: 'callback.confirmed',
  duplicate: 'callback.duplicate',
  older_state: 'callback.older_state',
  bad_signature: 'callback.bad_signature',
  no_signature: 'callback.bad_signature',
};

/** The row each fuzzer violation shows wrong. */
const VIOLATION_ROW: Record<ViolationKind, GoLiveRowId> = {
  credited_forged: 'callback.bad_signature',
  forged_accepted: 'callback.bad_signature',
  forged_not_refused: 'callback.bad_signature',
  credited_unconfirmed: 'callback.canceled',
  credited_twice: 'callback.duplicate',
  credited_wrong: 'callback.confirmed',
  not_credited: 'callback.confirmed',
  genuine_refused: 'callback.confirmed',
  state_back: 'callback.older_state',
  state_wrong: 'callback.older_state',
};

/** Violations only the balance probe shows: one of them also makes the credits row wrong. */
const CREDIT_VIOLATIONS: ReadonlySet<ViolationKind> = new Set(['credited_forged', 'credited_unconfirmed', 'credited_twice', 'credited_wrong', 'not_credited']);

const RANK: Record<GoLiveStatus, number> = { not_met: 0, met: 1, wrong: 2 };

const titleOf = (id: GoLiveRowId): string => (isGoLiveOwnRow(id) ? OWN_ROWS[id].title : COVERAGE_ROWS[id].title);

function exerciseOf(id: GoLiveRowId): string {
  if (isGoLiveOwnRow(id)) return OWN_ROWS[id].exercise;
  const own = COVERAGE_ROWS[id].exercise;
  return RECEIVER_ROWS.has(id) ? `${own}; or give go-live --receiver <url>` : own;
}

function fromCoverage(row: CoverageRow): GoLiveEvidence {
  const said = `${row.status}${row.trade !== undefined ? ` (trade ${row.trade})` : ''}${row.detail !== undefined ? `: ${row.detail}` : ''}`;
  if (row.status === 'wrong') return { source: 'coverage', status: 'wrong', detail: said };
  if (rowDone(row.id, row.status)) return { source: 'coverage', status: 'met', detail: said };
  return { source: 'coverage', status: 'not_met', detail: row.status === 'seen' ? `${said} (met, not answered right yet)` : 'not_seen: your tests never met it' };
}

/** What the receiver check and the fuzzer showed, by row. */
function fromReceiver(findings: ReceiverFindings): Map<GoLiveRowId, GoLiveEvidence[]> {
  const found = new Map<GoLiveRowId, GoLiveEvidence[]>();
  const add = (id: GoLiveRowId, evidence: GoLiveEvidence) => found.set(id, [...(found.get(id) ?? []), evidence]);
  for (const result of findings.check.cases) {
    if (result.verdict === 'skipped') continue;
    add(CASE_ROW[result.case], {
      source: 'check-callback',
      status: result.verdict === 'flagged' ? 'wrong' : 'met',
      detail: `${result.title}: ${result.verdict}${result.verdict === 'ok' ? '' : `: ${result.message}`}`,
    });
  }
  const forgeriesSent = findings.check.cases.some((c) => c.case === 'bad_signature' && c.verdict !== 'skipped');
  const probed = findings.probe !== undefined;
  if (findings.fuzzError !== undefined) {
    add('credits.checked', { source: 'fuzzer', status: 'wrong', detail: findings.fuzzError });
  } else if (findings.fuzz?.passed === true) {
    const detail = `${findings.fuzz.schedules} delivery schedules (seed ${findings.fuzz.seed}) kept every invariant${probed ? ', credits included' : ''}`;
    const shown: GoLiveRowId[] = ['callback.confirmed', 'callback.duplicate', 'callback.overlapping'];
    if (forgeriesSent) shown.push('callback.bad_signature');
    // Credits and the state the merchant keeps are only seen through the probe.
    if (probed) shown.push('callback.canceled', 'callback.older_state', 'credits.checked');
    for (const id of shown) add(id, { source: 'fuzzer', status: 'met', detail });
  } else if (findings.fuzz?.failure !== undefined) {
    const { violations, path } = findings.fuzz.failure;
    const replay = `check-callback --seed ${findings.fuzz.seed} --path ${path} replays it`;
    for (const violation of violations) {
      add(VIOLATION_ROW[violation.kind], { source: 'fuzzer', status: 'wrong', detail: `${violation.cause} (${replay})` });
      if (CREDIT_VIOLATIONS.has(violation.kind)) add('credits.checked', { source: 'fuzzer', status: 'wrong', detail: violation.cause });
    }
  }
  return found;
}

/**
 * The go-live checklist of one merchant: one row per provider behaviour, `met`, `not met` or
 * `wrong`, from the integration coverage its tests reached in the sandbox and, when a receiver
 * was checked, from the receiver check and the fuzzer. A row is wrong when any of them saw it
 * answered wrong (a coverage row stays wrong until the sandbox is reset), met when one of them
 * saw it handled, not met otherwise, with the one way to exercise it. Knows nothing of HTTP.
 *
 * @example
 * buildChecklist({ merchant: id, coverage: report.coverage[0], sandboxProbe: false }).ready // false until every row is met
 */
export function buildChecklist(input: ChecklistInput): GoLiveChecklist {
  const coverage = new Map((input.coverage?.rows ?? []).map((row) => [row.id as GoLiveRowId, row]));
  const receiver = input.receiver ? fromReceiver(input.receiver) : new Map<GoLiveRowId, GoLiveEvidence[]>();
  const rows = GO_LIVE_ROW_IDS.map((id): GoLiveRow => {
    const evidence: GoLiveEvidence[] = [];
    const row = coverage.get(id);
    if (row !== undefined) evidence.push(fromCoverage(row));
    else if (id in COVERAGE_ROWS) evidence.push({ source: 'coverage', status: 'not_met', detail: 'not_seen: your tests never met it' });
    if (id === 'credits.checked' && input.sandboxProbe)
      evidence.push({ source: 'probe', status: 'met', detail: 'the sandbox reads your balance probe (serve --probe): its callback rows were judged on credits too' });
    evidence.push(...(receiver.get(id) ?? []));
    evidence.sort((a, b) => RANK[b.status] - RANK[a.status]);
    const status = evidence[0]?.status ?? 'not_met';
    return { id, title: titleOf(id), status, evidence, ...(status === 'not_met' ? { exercise: exerciseOf(id) } : {}) };
  });
  const count = (status: GoLiveStatus) => rows.filter((row) => row.status === status).length;
  const counts = { met: count('met'), not_met: count('not_met'), wrong: count('wrong') };
  const found = input.receiver;
  return {
    merchant: input.merchant,
    ...(input.name !== undefined ? { name: input.name } : {}),
    ready: counts.not_met === 0 && counts.wrong === 0,
    counts,
    sandbox_probe: input.sandboxProbe,
    ...(found ? { receiver: { url: found.url, ...(found.probe !== undefined ? { probe: found.probe } : {}), seed: found.seed, runs: found.runs } } : {}),
    other_merchants: [...(input.otherMerchants ?? [])],
    rows,
  };
}
