import type { ProbeAnswer } from '../balance-probe/read-probe.js';
import type { TradeState } from '../trades/trade.js';
import type { CoverageRowId } from './coverage-rows.js';

/** What a merchant's balance must show for a trade once its callback was acknowledged. */
export interface CreditExpected {
  order: string;
  amount_cents: number;
  /** The state the acknowledged callback reported: `confirmed` is credited its amount, any other nothing. */
  state: TradeState;
}

/**
 * How the probe's answer compares: `once` (right for confirmed), `none` (right for any other
 * state), or what is wrong: `twice` (a whole multiple of the amount, two or more times),
 * `not_credited` (confirmed, nothing credited), `wrong_amount`, `unconfirmed` (credited, but the
 * trade was not confirmed).
 */
export type CreditVerdict = 'once' | 'none' | 'twice' | 'not_credited' | 'wrong_amount' | 'unconfirmed';

export interface CreditJudgement {
  verdict: CreditVerdict;
  right: boolean;
  /** What the probe showed, for a detail line: "credited 31250 once", "credited 31250 twice (62500)". */
  shows: string;
}

const times = (n: number) => (n === 2 ? 'twice' : `${n} times`);

/**
 * Compares the merchant's balance probe for one order with what a correct merchant credits: a
 * confirmed trade its amount exactly once, any other trade nothing. Knows nothing of HTTP.
 */
export function judgeCredit(expected: CreditExpected, answer: ProbeAnswer): CreditJudgement {
  const credited = answer.credited_cents;
  const amount = expected.amount_cents;
  const state = `, state ${answer.state ?? 'null'}`;
  if (expected.state !== 'confirmed') {
    if (credited === 0) return { verdict: 'none', right: true, shows: 'nothing credited' };
    return { verdict: 'unconfirmed', right: false, shows: `credited ${credited} although the trade is ${expected.state}${state}` };
  }
  if (credited === amount) return { verdict: 'once', right: true, shows: `credited ${amount} once` };
  if (credited === 0) return { verdict: 'not_credited', right: false, shows: `not credited (credited_cents 0${state})` };
  if (amount > 0 && credited % amount === 0) return { verdict: 'twice', right: false, shows: `credited ${amount} ${times(credited / amount)} (${credited})` };
  return { verdict: 'wrong_amount', right: false, shows: `credited ${credited}, but the trade's amount_cents is ${amount}` };
}

const RACE =
  'two deliveries of one event overlapped and both credited: the receiver checks and then writes without a unique key or a lock; make the write itself refuse the second (a unique index on trade id + state, INSERT … ON CONFLICT DO NOTHING, or SELECT … FOR UPDATE)';
const DEDUP = 'the receiver does not de-duplicate: a callback can arrive again (same X-Sandbox-Event-Id, or a replay); credit a trade at most once, by trade id and state';

/** What a merchant must change, for a wrong verdict on `row`. */
export function creditAdvice(row: CoverageRowId, verdict: CreditVerdict): string {
  switch (verdict) {
    case 'twice':
      if (row === 'callback.overlapping') return RACE;
      if (row === 'callback.bad_signature') return 'the copy with a wrong X-Signature was credited too: verify X-Signature first and change nothing when it does not match';
      return DEDUP;
    case 'not_credited':
      return 'credit amount_cents when a genuine "confirmed" arrives, before answering 2xx (the probe must read what the callback handler wrote)';
    case 'wrong_amount':
      return 'credit exactly amount_cents (kopecks) of the trade';
    case 'unconfirmed':
      return 'credit only when a genuine callback says "confirmed"';
    default:
      return '';
  }
}
