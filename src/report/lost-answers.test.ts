import { describe, expect, it } from 'vitest';
import { CoverageTally } from './coverage-tally.js';
import { type CreatedTrade, LOST_ANSWER_WINDOW_MS, LostAnswers } from './lost-answers.js';

/** A create as src/report/count-creates.ts reports it: 31250 kopecks for customer c-1 unless told. */
const created = (order: string, at: number, extra: Partial<CreatedTrade> = {}): CreatedTrade => ({
  order,
  amount: 31250,
  customer: 'c-1',
  scenario: undefined,
  at,
  trade: `t-${order}`,
  ...extra,
});

function row() {
  const coverage = new CoverageTally();
  const lost = new LostAnswers();
  const status = () => coverage.rows().find((r) => r.id === 'create.lost_answer');
  return { coverage, lost, status };
}

describe('create.lost_answer: retry with the same order first, then a new order is no mistake', () => {
  it('a lost create is seen; a new order with the same amount and customer before any retry is wrong', () => {
    const { coverage, lost, status } = row();
    lost.created(coverage, created('sbx-lost-1', 0));
    expect(status()).toMatchObject({ status: 'seen', trade: 't-sbx-lost-1' });
    lost.created(coverage, created('order-2', 30_000));
    expect(status()).toMatchObject({ status: 'wrong', trade: 't-sbx-lost-1', detail: expect.stringContaining('a new order order-2 with the same amount and customer') });
  });

  it('the same order retried and answered 422 duplicate_order, then a new order for the payer: handled (the recovery when duplicate_order names no trade)', () => {
    const { coverage, lost, status } = row();
    lost.created(coverage, created('sbx-lost-1', 0));
    expect(lost.duplicate(coverage, 'sbx-lost-1')).toBe(true);
    expect(lost.waiting).toBe(false);
    lost.created(coverage, created('order-2', 30_000)); // same amount, same customer, 30 s later
    expect(status()).toMatchObject({ status: 'handled', trade: 't-sbx-lost-1', detail: 'order sbx-lost-1 was retried with the same order after its answer was lost' });
  });

  it('a new order before the retry stays wrong, whatever the retry says after it', () => {
    const { coverage, lost, status } = row();
    lost.created(coverage, created('sbx-lost-1', 0));
    lost.created(coverage, created('order-2', 1_000));
    expect(lost.duplicate(coverage, 'sbx-lost-1')).toBe(true); // no duplicate-order mistake either
    expect(status()).toMatchObject({ status: 'wrong' });
  });

  it('only the same amount and customer within the window counts: another amount, another customer, or later is not the same payment', () => {
    const { coverage, lost, status } = row();
    lost.created(coverage, created('sbx-lost-1', 0));
    lost.created(coverage, created('order-amount', 1_000, { amount: 100 }));
    lost.created(coverage, created('order-customer', 1_000, { customer: 'c-2' }));
    lost.created(coverage, created('order-later', LOST_ANSWER_WINDOW_MS + 1));
    expect(status()).toMatchObject({ status: 'seen' });
    expect(lost.waiting).toBe(true);
  });

  it('a late answer retried before its 201 was written: handled, and the late 201 arms nothing for the creates after it', () => {
    const { coverage, lost, status } = row();
    // sbx-late-: saved at 0; the client times out and retries at 10 s (422); the 201 is written at 65 s.
    expect(lost.duplicate(coverage, 'sbx-late-1')).toBe(true);
    expect(status()).toMatchObject({ status: 'handled' });
    lost.created(coverage, created('order-2', 10_000)); // the new order for the payer
    lost.created(coverage, created('sbx-late-1', 65_000, { scenario: 'late-answer' }));
    expect(lost.waiting).toBe(false);
    lost.created(coverage, created('order-3', 90_000)); // any later create of the same amount and customer
    expect(status()).toMatchObject({ status: 'handled' });
  });

  it('a late answer not retried is seen when its 201 is written, and a new order after it is wrong', () => {
    const { coverage, lost, status } = row();
    lost.created(coverage, created('sbx-late-1', 65_000, { scenario: 'late-answer' }));
    expect(status()).toMatchObject({ status: 'seen' });
    lost.created(coverage, created('order-2', 70_000));
    expect(status()).toMatchObject({ status: 'wrong' });
  });

  it('a duplicate order that is no lost answer is not the row: the counter counts it as a mistake', () => {
    const { coverage, lost, status } = row();
    expect(lost.duplicate(coverage, 'order-1')).toBe(false);
    expect(status()).toEqual({ id: 'create.lost_answer', status: 'not_seen' });
  });
});
