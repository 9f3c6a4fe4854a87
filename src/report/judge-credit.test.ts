import { describe, expect, it } from 'vitest';
import { creditAdvice, judgeCredit } from './judge-credit.js';

const confirmed = { order: 'o-1', amount_cents: 31250, state: 'confirmed' as const };

describe('judgeCredit', () => {
  it('a confirmed trade is right only when credited its amount exactly once', () => {
    expect(judgeCredit(confirmed, { state: 'confirmed', credited_cents: 31250 })).toMatchObject({ verdict: 'once', right: true, shows: 'credited 31250 once' });
    expect(judgeCredit(confirmed, { state: 'confirmed', credited_cents: 62500 })).toMatchObject({ verdict: 'twice', right: false, shows: 'credited 31250 twice (62500)' });
    expect(judgeCredit(confirmed, { state: 'confirmed', credited_cents: 93750 }).shows).toBe('credited 31250 3 times (93750)');
    expect(judgeCredit(confirmed, { state: null, credited_cents: 0 })).toMatchObject({ verdict: 'not_credited', right: false, shows: 'not credited (credited_cents 0, state null)' });
    expect(judgeCredit(confirmed, { state: 'confirmed', credited_cents: 31300 })).toMatchObject({
      verdict: 'wrong_amount',
      right: false,
      shows: "credited 31300, but the trade's amount_cents is 31250",
    });
  });

  it('a canceled or expired trade is right only when nothing was credited', () => {
    expect(judgeCredit({ ...confirmed, state: 'canceled' }, { state: 'canceled', credited_cents: 0 })).toMatchObject({ verdict: 'none', right: true, shows: 'nothing credited' });
    expect(judgeCredit({ ...confirmed, state: 'expired' }, { state: 'confirmed', credited_cents: 31250 })).toMatchObject({
      verdict: 'unconfirmed',
      right: false,
      shows: 'credited 31250 although the trade is expired, state confirmed',
    });
  });

  it('the advice for a double credit names the cause the row is about', () => {
    expect(creditAdvice('callback.overlapping', 'twice')).toContain('two deliveries of one event overlapped');
    expect(creditAdvice('callback.bad_signature', 'twice')).toContain('the copy with a wrong X-Signature was credited too');
    expect(creditAdvice('callback.duplicate', 'twice')).toContain('does not de-duplicate');
    expect(creditAdvice('callback.confirmed', 'not_credited')).toContain('credit amount_cents when a genuine "confirmed" arrives');
  });
});
