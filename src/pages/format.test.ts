import { describe, expect, it } from 'vitest';
import { formatClockTime, formatCountdown, formatDateTime, formatMoney, formatPhone, formatRubles, groupCard, safeReturnUrl } from './format.js';

/** Intl separates with no-break spaces; the tests write them as plain spaces for reading. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('formatMoney and formatRubles (Intl)', () => {
  it('ru: kopecks after a comma, the ruble sign after a no-break space', () => {
    expect(formatRubles(31250)).toBe('312,50\u00a0₽');
    expect(plain(formatMoney(1, 'ru'))).toBe('0,01 ₽');
    expect(plain(formatMoney(100, 'ru'))).toBe('1,00 ₽');
  });

  it('ru separates thousands with no-break spaces; en writes ₽1,234,567.89', () => {
    expect(plain(formatRubles(123456789))).toBe('1 234 567,89 ₽');
    expect(formatRubles(123456789)).not.toContain(' ');
    expect(plain(formatMoney(100000, 'ru'))).toBe('1 000,00 ₽');
    expect(formatMoney(123456789, 'en')).toBe('₽1,234,567.89');
  });
});

describe('formatClockTime and formatDateTime', () => {
  const at = Date.UTC(2026, 10, 23, 17, 5, 9);
  it('name the zone (sandbox time is UTC)', () => {
    expect(formatClockTime(at, 'ru')).toBe('17:05 UTC');
    expect(formatClockTime(at, 'en')).toBe('17:05 UTC');
    expect(formatDateTime(new Date(at).toISOString(), 'ru')).toBe('23.11.2026, 17:05:09 UTC');
    expect(formatDateTime(new Date(at).toISOString(), 'en')).toBe('23/11/2026, 17:05:09 UTC');
    expect(formatDateTime('not a time', 'en')).toBe('not a time');
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
