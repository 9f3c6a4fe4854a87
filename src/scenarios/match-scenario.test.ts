import { describe, expect, it } from 'vitest';
import { matchesScenario, type MatchRequest } from './match-scenario.js';
import { matchSchema } from './scenario.js';

const DEMO = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51';
const SECOND = '0b8e4c3d-7a21-4f6e-8d59-3c1a2b9e6f70';

const request = (overrides: Partial<MatchRequest> = {}): MatchRequest => ({ type: 'any_bank', merchant: DEMO, amount_cents: 31250, order: 'order-1001', ...overrides });
const matches = (match: unknown, overrides: Partial<MatchRequest> = {}) => matchesScenario(matchSchema.parse(match), request(overrides));

describe('matchesScenario', () => {
  it('never matches without a match block (header-only scenario)', () => {
    expect(matchesScenario(undefined, request())).toBe(false);
  });

  it('type: one or a list', () => {
    expect(matches({ type: 'any_bank' })).toBe(true);
    expect(matches({ type: 'nspk' })).toBe(false);
    expect(matches({ type: ['nspk', 'ecom'] }, { type: 'ecom' })).toBe(true);
    expect(matches({ type: ['nspk', 'ecom'] })).toBe(false);
  });

  it('merchant: one or a list, any letter case', () => {
    expect(matches({ merchant: DEMO.toUpperCase() })).toBe(true);
    expect(matches({ merchant: SECOND })).toBe(false);
    expect(matches({ merchant: [SECOND, DEMO] })).toBe(true);
  });

  it('amount: exact', () => {
    expect(matches({ amount: 1313 }, { amount_cents: 1313 })).toBe(true);
    expect(matches({ amount: 1313 }, { amount_cents: 13130 })).toBe(false);
  });

  it('amount: range, inclusive, open on either side', () => {
    expect(matches({ amount: { min: 100, max: 200 } }, { amount_cents: 100 })).toBe(true);
    expect(matches({ amount: { min: 100, max: 200 } }, { amount_cents: 200 })).toBe(true);
    expect(matches({ amount: { min: 100, max: 200 } }, { amount_cents: 201 })).toBe(false);
    expect(matches({ amount: { min: 100, max: 200 } }, { amount_cents: 99 })).toBe(false);
    expect(matches({ amount: { min: 1_000_000 } }, { amount_cents: 5_000_000 })).toBe(true);
    expect(matches({ amount: { max: 50 } }, { amount_cents: 51 })).toBe(false);
  });

  it('amount: last digits, leading zeros kept', () => {
    expect(matches({ amount: { last_digits: '13' } }, { amount_cents: 250013 })).toBe(true);
    expect(matches({ amount: { last_digits: '13' } }, { amount_cents: 250031 })).toBe(false);
    expect(matches({ amount: { last_digits: '07' } }, { amount_cents: 1007 })).toBe(true);
    expect(matches({ amount: { last_digits: '07' } }, { amount_cents: 1017 })).toBe(false);
  });

  it('order: a regular expression, anchored only when written so', () => {
    expect(matches({ order: '^confirm-' }, { order: 'confirm-42' })).toBe(true);
    expect(matches({ order: '^confirm-' }, { order: 'x-confirm-42' })).toBe(false);
    expect(matches({ order: 'vip' }, { order: 'order-vip-1' })).toBe(true);
    expect(matches({ order: '' })).toBe(true);
  });

  it('customer: exact, or a regular expression; either spelling; absent never matches', () => {
    expect(matches({ customer: 'alice' }, { customer: 'alice' })).toBe(true);
    expect(matches({ customer: 'alice' }, { customer: 'alice2' })).toBe(false);
    expect(matches({ customer: 'alice' }, { cusotmer: 'alice' })).toBe(true);
    expect(matches({ customer: { regex: '^vip-' } }, { customer: 'vip-7' })).toBe(true);
    expect(matches({ customer: { regex: '^vip-' } }, { customer: 'plain' })).toBe(false);
    expect(matches({ customer: { regex: '' } })).toBe(false);
  });

  it('every condition must hold', () => {
    const match = { type: 'ecom', order: '^big-', amount: { min: 100_000 } };
    expect(matches(match, { type: 'ecom', order: 'big-1', amount_cents: 100_000 })).toBe(true);
    expect(matches(match, { type: 'any_bank', order: 'big-1', amount_cents: 100_000 })).toBe(false);
    expect(matches(match, { type: 'ecom', order: 'small-1', amount_cents: 100_000 })).toBe(false);
    expect(matches(match, { type: 'ecom', order: 'big-1', amount_cents: 99_999 })).toBe(false);
  });
});
