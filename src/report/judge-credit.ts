import type { ProbeAnswer } from '../balance-probe/read-probe.js';
import { type CodedText, codedText } from '../i18n/coded-text.js';
import { isFinal, isWaiting } from '../lifecycle/transitions.js';
import type { StateName } from '../trades/trade.js';
import type { CoverageRowId } from './coverage-rows.js';

/** What a merchant's balance must show for a trade once its callback was acknowledged. */
export interface CreditExpected {
  order: string;
  amount_cents: number;
  /** The state the acknowledged callback reported: `confirmed` is credited its amount, any other nothing. */
  state: StateName;
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
  /** The same, with its code and parameters (a dashboard says it in its language). */
  said: CodedText;
}

const judged = (verdict: CreditVerdict, right: boolean, said: CodedText): CreditJudgement => ({ verdict, right, shows: said.text, said });

/**
 * Compares the merchant's balance probe for one order with what a correct merchant credits: a
 * confirmed trade its amount exactly once, any other trade nothing. Knows nothing of HTTP.
 */
export function judgeCredit(expected: CreditExpected, answer: ProbeAnswer): CreditJudgement {
  const credited = answer.credited_cents;
  const amount = expected.amount_cents;
  const probe_state = answer.state ?? 'null';
  if (expected.state !== 'confirmed') {
    if (credited === 0) return judged('none', true, codedText('credit.none'));
    // A provider profile's intermediate state (e.g. processing) is followed by the final one at
    // once: a probe that already shows the trade confirmed is judged as that callback's credit.
    if (!isFinal(expected.state) && !isWaiting(expected.state) && answer.state === 'confirmed') return judgeCredit({ ...expected, state: 'confirmed' }, answer);
    return judged('unconfirmed', false, codedText('credit.unconfirmed', { credited, trade_state: expected.state, probe_state }));
  }
  if (credited === amount) return judged('once', true, codedText('credit.once', { amount }));
  if (credited === 0) return judged('not_credited', false, codedText('credit.not_credited', { probe_state }));
  if (amount > 0 && credited % amount === 0) {
    const count = credited / amount;
    return judged('twice', false, count === 2 ? codedText('credit.twice', { amount, credited }) : codedText('credit.times', { amount, count, credited }));
  }
  return judged('wrong_amount', false, codedText('credit.wrong_amount', { credited, amount }));
}

/** What a merchant must change, for a wrong verdict on `row` (undefined for a right one). */
export function creditAdviceText(row: CoverageRowId, verdict: CreditVerdict): CodedText | undefined {
  switch (verdict) {
    case 'twice':
      if (row === 'callback.overlapping') return codedText('credit.advice.race');
      if (row === 'callback.bad_signature') return codedText('credit.advice.bad_signature');
      return codedText('credit.advice.dedup');
    case 'not_credited':
      return codedText('credit.advice.not_credited');
    case 'wrong_amount':
      return codedText('credit.advice.wrong_amount');
    case 'unconfirmed':
      return codedText('credit.advice.unconfirmed');
    default:
      return undefined;
  }
}

/** What a merchant must change, for a wrong verdict on `row`, in English ('' for a right one). */
export function creditAdvice(row: CoverageRowId, verdict: CreditVerdict): string {
  return creditAdviceText(row, verdict)?.text ?? '';
}
