import { describe, expect, it } from 'vitest';
import { formatCountdown, formatPhone, formatRubles, groupCard, safeReturnUrl } from './format.js';

describe('formatRubles', () => {
  it('writes kopecks after a comma and the ruble sign after a space', () => {
    expect(formatRubles(31250)).toBe('312,50 ₽');
    expect(formatRubles(1)).toBe('0,01 ₽');
    expect(formatRubles(100)).toBe('1,00 ₽');
  });

  it('separates thousands with spaces', () => {
    expect(formatRubles(123456789)).toBe('1 234 567,89 ₽');
    expect(formatRubles(100000)).toBe('1 000,00 ₽');
  });
});

describe('groupCard and formatPhone', () => {
  it('groups a card number in fours', () => {
    expect(groupCard('2202201234567890')).toBe('2202 2012 3456 7890');
    expect(groupCard('4242 4242-4242 4242')).toBe('4242 4242 4242 4242');
  });

  it('spaces a Russian mobile number and leaves anything else alone', () => {
    expect(formatPhone('+79123456789')).toBe('+7 912 345-67-89');
    expect(formatPhone('12345')).toBe('12345');
  });
});

describe('formatCountdown', () => {
  it('shows minutes and seconds, hours only when there are some, never below zero', () => {
    expect(formatCountdown(15 * 60_000)).toBe('15:00');
    expect(formatCountdown(65_000)).toBe('1:05');
    expect(formatCountdown(3_723_000)).toBe('1:02:03');
    expect(formatCountdown(400)).toBe('0:01');
    expect(formatCountdown(-5)).toBe('0:00');
  });
});

describe('safeReturnUrl', () => {
  it('keeps absolute http(s) URLs only', () => {
    expect(safeReturnUrl('https://shop.example/back?x=1')).toBe('https://shop.example/back?x=1');
    expect(safeReturnUrl('HTTP://shop.example/')).toBe('http://shop.example/');
    expect(safeReturnUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeReturnUrl('//evil.example/')).toBeUndefined();
    expect(safeReturnUrl('https://')).toBeUndefined();
    expect(safeReturnUrl(undefined)).toBeUndefined();
  });
});
