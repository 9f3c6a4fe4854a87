import { describe, expect, it } from 'vitest';
import { TRADE_STATES } from '../trades/trade.js';
import { DEFAULT_TABLE, isFinal, isWaiting, TRANSITIONS, transitionTable } from './transitions.js';

describe('the transition table of a profile', () => {
  it('without intermediate states is the sandbox table, move for move', () => {
    expect(transitionTable([])).toBe(DEFAULT_TABLE);
    expect(DEFAULT_TABLE.states).toEqual([...TRADE_STATES]);
    for (const from of TRADE_STATES) {
      expect(DEFAULT_TABLE.allowed(from)).toEqual(TRANSITIONS[from]);
      for (const to of TRADE_STATES) expect(DEFAULT_TABLE.route(from, to), `${from} -> ${to}`).toEqual(TRANSITIONS[from].includes(to) ? [to] : undefined);
    }
  });

  it('puts the intermediate states between the waiting and the final ones, in list order', () => {
    const table = transitionTable(['processing', 'review']);
    expect(table.states).toEqual(['created', 'ecom', 'processing', 'review', 'confirmed', 'canceled', 'expired']);
    expect(table.allowed('created')).toEqual(['processing', 'review', 'confirmed', 'canceled', 'expired']);
    expect(table.allowed('ecom')).toEqual(['processing', 'review', 'confirmed', 'canceled', 'expired']);
    expect(table.allowed('processing')).toEqual(['review', 'confirmed', 'canceled', 'expired']);
    expect(table.allowed('review')).toEqual(['confirmed', 'canceled', 'expired']);
    for (const state of ['confirmed', 'canceled', 'expired']) expect(table.allowed(state)).toEqual([]);
    expect(table.isIntermediate('review')).toBe(true);
    expect(table.isIntermediate('created')).toBe(false);
  });

  it('passes a confirmation through every intermediate state, and ends a trade with canceled or expired at once', () => {
    const table = transitionTable(['processing', 'review']);
    expect(table.route('created', 'confirmed')).toEqual(['processing', 'review', 'confirmed']);
    expect(table.route('ecom', 'review')).toEqual(['processing', 'review']);
    expect(table.route('processing', 'confirmed')).toEqual(['review', 'confirmed']);
    expect(table.route('review', 'confirmed')).toEqual(['confirmed']);
    expect(table.route('created', 'canceled')).toEqual(['canceled']);
    expect(table.route('processing', 'expired')).toEqual(['expired']);
    // Never back, never to a waiting state, nothing after a final one.
    expect(table.route('review', 'processing')).toBeUndefined();
    expect(table.route('processing', 'processing')).toBeUndefined();
    expect(table.route('processing', 'created')).toBeUndefined();
    expect(table.route('confirmed', 'canceled')).toBeUndefined();
  });

  it('lets a trade in a state the profile no longer has be read and ended in any final state', () => {
    const table = transitionTable(['review']);
    expect(table.knows('processing')).toBe(false);
    expect(table.allowed('processing')).toEqual(['confirmed', 'canceled', 'expired']);
    expect(table.route('processing', 'confirmed')).toEqual(['confirmed']);
    expect(table.route('processing', 'review')).toBeUndefined();
    expect(DEFAULT_TABLE.allowed('processing')).toEqual(['confirmed', 'canceled', 'expired']);
  });

  it('is built once per list of a profile', () => {
    const list = Object.freeze(['processing']);
    expect(transitionTable(list)).toBe(transitionTable(list));
  });

  it('knows final and waiting states whatever the profile', () => {
    expect(['confirmed', 'canceled', 'expired'].every(isFinal)).toBe(true);
    expect(['created', 'ecom', 'processing'].some(isFinal)).toBe(false);
    expect(['created', 'ecom'].every(isWaiting)).toBe(true);
    expect(isWaiting('processing')).toBe(false);
  });
});
