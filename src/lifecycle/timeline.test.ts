import { describe, expect, it } from 'vitest';
import { Clock } from '../clock/clock.js';
import { Scheduler } from '../clock/scheduler.js';
import { codedText } from '../i18n/coded-text.js';
import { Refusal } from '../refusals/refusal.js';
import { MemoryAdapter } from '../store/adapter.js';
import { Store } from '../store/store.js';
import type { TradeRecord } from '../trades/trade.js';
import { Lifecycle } from './lifecycle.js';
import { payOnPage, registerTimeline, SETTLE_STEP_MS, TIMELINE_JOB } from './timeline.js';
import { transitionTable } from './transitions.js';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

function trade(id: string): TradeRecord {
  const at = new Date(T0).toISOString();
  return {
    id,
    order: `order-${id}`,
    merchant: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51',
    state: 'created',
    amount_cents: 100,
    amount_currency: 'RUB',
    rate: 92.5,
    type: 'any_bank',
    requisites: { name: 'Ivan Petrov', number: '2202200000000000', bank_name: 'Sberbank' },
    created_at: at,
    updated_at: at,
    history: [{ from: null, to: 'created', at, cause: 'create' }],
  };
}

async function setup(intermediate: readonly string[]) {
  const store = await Store.open(new MemoryAdapter());
  const clock = new Clock('manual', store, () => T0);
  const lifecycle = new Lifecycle(store, clock, () => transitionTable(intermediate));
  const scheduler = new Scheduler(store, clock);
  registerTimeline(scheduler, lifecycle);
  await scheduler.start();
  store.trades.put(trade('t1'));
  return { store, clock, lifecycle, scheduler };
}

const paid = codedText('history.page.paid');

describe('payOnPage', () => {
  it('confirms at once without intermediate states', async () => {
    const { lifecycle, scheduler, clock } = await setup([]);
    const moved = payOnPage(lifecycle, scheduler, 't1', paid, clock.now());
    expect(moved).not.toBeInstanceOf(Refusal);
    expect((moved as TradeRecord).state).toBe('confirmed');
    expect(scheduler.pending()).toEqual([]);
  });

  it('moves to the first intermediate state, then the next ones and confirmed follow on the sandbox clock, as the page did them', async () => {
    const { store, lifecycle, scheduler, clock } = await setup(['processing', 'review']);
    expect((payOnPage(lifecycle, scheduler, 't1', paid, clock.now()) as TradeRecord).state).toBe('processing');
    expect(scheduler.pending().map((job) => [job.kind, job.data['state'], job.due - T0])).toEqual([
      [TIMELINE_JOB, 'review', SETTLE_STEP_MS],
      [TIMELINE_JOB, 'confirmed', 2 * SETTLE_STEP_MS],
    ]);
    await scheduler.advance(SETTLE_STEP_MS);
    expect(store.trades.get('t1')?.state).toBe('review');
    await scheduler.advance(SETTLE_STEP_MS);
    const history = store.trades.get('t1')?.history ?? [];
    expect(history.map((entry) => [entry.to, entry.cause])).toEqual([
      ['created', 'create'],
      ['processing', 'page'],
      ['review', 'page'],
      ['confirmed', 'page'],
    ]);
    expect(history.at(-1)).toMatchObject({ note: 'The payment made on the payment page went on to confirmed.', note_code: 'history.page.settled', note_params: { state: 'confirmed' } });
  });

  it('skips the later steps once the trade was moved on meanwhile', async () => {
    const { store, lifecycle, scheduler, clock } = await setup(['processing']);
    payOnPage(lifecycle, scheduler, 't1', paid, clock.now());
    lifecycle.transition('t1', 'canceled', 'admin');
    await scheduler.advance(SETTLE_STEP_MS);
    expect(store.trades.get('t1')?.state).toBe('canceled');
    expect(store.trades.get('t1')?.history).toHaveLength(3);
  });

  it('schedules nothing when the move is refused', async () => {
    const { lifecycle, scheduler, clock } = await setup(['processing']);
    lifecycle.transition('t1', 'expired', 'scenario');
    expect(payOnPage(lifecycle, scheduler, 't1', paid, clock.now())).toBeInstanceOf(Refusal);
    expect(scheduler.pending()).toEqual([]);
  });
});
