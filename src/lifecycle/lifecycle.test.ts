import { describe, expect, it } from 'vitest';
import { Clock } from '../clock/clock.js';
import { Refusal } from '../refusals/refusal.js';
import { MemoryAdapter } from '../store/adapter.js';
import { Store } from '../store/store.js';
import type { TradeRecord, TradeState } from '../trades/trade.js';
import { Lifecycle, type StateChange } from './lifecycle.js';
import { allowedTransitions, canTransition, isFinal, TRANSITIONS, transitionTable, type TransitionTable } from './transitions.js';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

function trade(id: string, state: TradeState): TradeRecord {
  const at = new Date(T0).toISOString();
  return {
    id,
    order: `order-${id}`,
    merchant: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51',
    state,
    amount_cents: 100,
    amount_currency: 'RUB',
    rate: 92.5,
    type: state === 'ecom' ? 'ecom' : 'any_bank',
    requisites: { name: 'Ivan Petrov', number: '2202200000000000', bank_name: 'Sberbank' },
    created_at: at,
    updated_at: at,
    history: [{ from: null, to: state, at, cause: 'create' }],
  };
}

async function setup(table?: () => TransitionTable) {
  const store = await Store.open(new MemoryAdapter());
  const clock = new Clock('manual', store, () => T0);
  return { store, clock, lifecycle: new Lifecycle(store, clock, table) };
}

function refused(result: TradeRecord | Refusal): Refusal {
  if (result instanceof Refusal) return result;
  throw new Error(`expected a refusal; the trade moved to ${result.state}`);
}

function moved(result: TradeRecord | Refusal): TradeRecord {
  if (result instanceof Refusal) throw new Error(`expected a move; refused: ${result.message}`);
  return result;
}

describe('transition table', () => {
  it('lets the waiting states end in confirmed, canceled or expired', () => {
    for (const from of ['created', 'ecom'] as const) {
      expect(allowedTransitions(from)).toEqual(['confirmed', 'canceled', 'expired']);
      expect(isFinal(from)).toBe(false);
    }
  });

  it('keeps final states final and never moves back to a start state', () => {
    for (const state of ['confirmed', 'canceled', 'expired'] as const) {
      expect(isFinal(state)).toBe(true);
      expect(allowedTransitions(state)).toEqual([]);
    }
    for (const from of Object.keys(TRANSITIONS) as TradeState[]) {
      expect(canTransition(from, 'created')).toBe(false);
      expect(canTransition(from, 'ecom')).toBe(false);
    }
  });
});

describe('Lifecycle.transition', () => {
  it('moves the trade, records history with the cause and tells listeners', async () => {
    const { store, clock, lifecycle } = await setup();
    store.trades.put(trade('t1', 'created'));
    const changes: StateChange[] = [];
    lifecycle.onChange((change) => changes.push(change));
    clock.advance(30_000);

    const updated = moved(lifecycle.transition('t1', 'confirmed', 'admin', 'paid by QA'));

    expect(updated.state).toBe('confirmed');
    expect(updated.updated_at).toBe('2026-01-01T12:00:30.000Z');
    expect(updated.history.at(-1)).toEqual({ from: 'created', to: 'confirmed', at: '2026-01-01T12:00:30.000Z', cause: 'admin', note: 'paid by QA' });
    expect(store.trades.get('t1')?.state).toBe('confirmed');
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ from: 'created', to: 'confirmed', cause: 'admin' });
    expect(changes[0]?.trade).toBe(updated);
  });

  it('refuses a move the table does not allow with a conflict naming the allowed states', async () => {
    const { store, lifecycle } = await setup();
    store.trades.put(trade('t2', 'ecom'));
    lifecycle.transition('t2', 'canceled', 'page');
    const refusal = refused(lifecycle.transition('t2', 'confirmed', 'admin'));
    expect(refusal.kind).toBe('conflict');
    expect(refusal.code).toBe('transition_not_allowed');
    expect(refusal.message).toBe('Trade t2 is canceled, a final state: it cannot move to confirmed.');
    expect(refusal.allowed).toEqual([]);
    expect(store.trades.get('t2')?.state).toBe('canceled');
    expect(store.trades.get('t2')?.history).toHaveLength(2);
  });

  it('names the allowed states when a waiting trade is asked for an impossible move', async () => {
    const { store, lifecycle } = await setup();
    store.trades.put(trade('t3', 'created'));
    const refusal = refused(lifecycle.transition('t3', 'ecom', 'admin'));
    expect(refusal.kind).toBe('conflict');
    expect(refusal.allowed).toEqual(['confirmed', 'canceled', 'expired']);
  });

  it('refuses an unknown state as invalid and an unknown trade as not found', async () => {
    const { store, lifecycle } = await setup();
    store.trades.put(trade('t4', 'created'));
    const unknownState = refused(lifecycle.transition('t4', 'paid', 'admin'));
    expect(unknownState.kind).toBe('invalid');
    expect(unknownState.details[0]?.field).toBe('state');
    expect(refused(lifecycle.transition('nope', 'confirmed', 'admin')).kind).toBe('not_found');
  });

  it('does not call listeners when the move is refused', async () => {
    const { store, lifecycle } = await setup();
    store.trades.put(trade('t5', 'confirmed'));
    let calls = 0;
    lifecycle.onChange(() => calls++);
    refused(lifecycle.transition('t5', 'canceled', 'admin'));
    expect(calls).toBe(0);
  });
});

describe('Lifecycle.transition under a profile with intermediate states', () => {
  it('passes a confirmation through each intermediate state: one history entry and one change each, at the same moment', async () => {
    const { store, lifecycle } = await setup(() => transitionTable(['processing', 'review']));
    store.trades.put(trade('i1', 'created'));
    const changes: StateChange[] = [];
    lifecycle.onChange((change) => changes.push(change));

    const updated = moved(lifecycle.transition('i1', 'confirmed', 'admin', 'paid by QA'));

    expect(updated.state).toBe('confirmed');
    expect(updated.history.slice(1).map((entry) => [entry.from, entry.to, entry.cause, entry.note])).toEqual([
      ['created', 'processing', 'admin', 'paid by QA'],
      ['processing', 'review', 'admin', 'paid by QA'],
      ['review', 'confirmed', 'admin', 'paid by QA'],
    ]);
    expect(changes.map((change) => [change.from, change.to, change.trade.state])).toEqual([
      ['created', 'processing', 'processing'],
      ['processing', 'review', 'review'],
      ['review', 'confirmed', 'confirmed'],
    ]);
    expect(new Set(changes.map((change) => change.at)).size).toBe(1);
    // The record lists the intermediate states it entered, so the store loads it under any profile.
    expect(updated.intermediate).toEqual(['processing', 'review']);
  });

  it('moves to an intermediate state, and names the intermediate states among the allowed ones', async () => {
    const { store, lifecycle } = await setup(() => transitionTable(['processing']));
    store.trades.put(trade('i2', 'ecom'));
    expect(moved(lifecycle.transition('i2', 'processing', 'scenario')).state).toBe('processing');
    const back = refused(lifecycle.transition('i2', 'ecom', 'admin'));
    expect(back.kind).toBe('conflict');
    expect(back.message).toBe('Trade i2 is processing and cannot move to ecom. Allowed: confirmed, canceled, expired.');
    expect(back.allowed).toEqual(['confirmed', 'canceled', 'expired']);
    expect(moved(lifecycle.transition('i2', 'expired', 'scenario')).state).toBe('expired');
  });

  it('lists the profile states when a state is unknown', async () => {
    const { store, lifecycle } = await setup(() => transitionTable(['processing']));
    store.trades.put(trade('i3', 'created'));
    const unknown = refused(lifecycle.transition('i3', 'review', 'admin'));
    expect(unknown.kind).toBe('invalid');
    expect(unknown.message).toBe('Unknown state "review". States are created, ecom, processing, confirmed, canceled, expired.');
  });

  it('follows the table in force at each move, and still ends a trade whose state the profile in force lacks', async () => {
    let table = transitionTable(['processing']);
    const { store, lifecycle } = await setup(() => table);
    store.trades.put(trade('i4', 'created'));
    moved(lifecycle.transition('i4', 'processing', 'admin'));
    table = transitionTable([]);
    expect(lifecycle.table().allowed('processing')).toEqual(['confirmed', 'canceled', 'expired']);
    expect(refused(lifecycle.transition('i4', 'processing', 'admin')).kind).toBe('invalid');
    const ended = moved(lifecycle.transition('i4', 'confirmed', 'admin'));
    expect(ended.history.slice(1).map((entry) => entry.to)).toEqual(['processing', 'confirmed']);
  });
});
