import { describe, expect, it } from 'vitest';
import { nearestKey } from './nearest-key.js';

describe('nearestKey', () => {
  const merchant = ['id', 'name', 'token', 'secret', 'rate'];

  it('suggests the key a typo was meant to be', () => {
    expect(nearestKey('tokn', merchant)).toBe('token');
    expect(nearestKey('Secrte', merchant)).toBe('secret');
    expect(nearestKey('matches', ['name', 'description', 'match', 'respond', 'delay', 'timeline', 'callbacks'])).toBe('match');
    expect(nearestKey('fail_frist', ['fail_first', 'delay', 'duplicate', 'bad_signature'])).toBe('fail_first');
  });

  it('suggests nothing for a key that is nothing like the known ones, or an exact one', () => {
    expect(nearestKey('currency', merchant)).toBeUndefined();
    expect(nearestKey('__proto__', merchant)).toBeUndefined();
    expect(nearestKey('token', merchant)).toBeUndefined();
    expect(nearestKey('x', [])).toBeUndefined();
  });
});
