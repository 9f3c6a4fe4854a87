import { describe, expect, it } from 'vitest';
import { rublesToCents } from './dashboard-new-trade.js';

describe('rublesToCents (the New trade amount field)', () => {
  it('reads rubles with a point or a comma and spaces between thousands', () => {
    expect(rublesToCents('312.50')).toBe(31250);
    expect(rublesToCents('312,5')).toBe(31250);
    expect(rublesToCents('1 234,56')).toBe(123456);
    expect(rublesToCents('1\u00a0000')).toBe(100000);
    expect(rublesToCents('0.01')).toBe(1);
  });

  it('refuses zero, negatives, more than two decimals and anything else', () => {
    for (const text of ['0', '0,00', '-5', '1.234', '12abc', '', '1e3']) expect(rublesToCents(text), text).toBeUndefined();
  });
});
