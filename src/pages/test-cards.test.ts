import { describe, expect, it } from 'vitest';
import { isLuhnValid } from '../trades/requisites.js';
import { PAY_EN } from '../i18n/pay-en.js';
import { translator } from '../i18n/translator.js';
import { checkCard, parseExpiry, TEST_CARDS, testCardsHint, type CardError } from './test-cards.js';

const en = translator('en', PAY_EN);
/** A field error as the English page says it. */
const say = (error: CardError | undefined) => (error ? en(error.key, { ...error.params, cards: testCardsHint(en) }) : undefined);

const NOW = Date.UTC(2026, 4, 20); // 20 May 2026

describe('checkCard', () => {
  it('maps each test card to its outcome', () => {
    const outcome = (number: string) => {
      const result = checkCard({ number, expiry: '12/30', cvc: '123' }, NOW);
      return result.ok ? result.card.outcome : result.errors;
    };
    expect(outcome('4242 4242 4242 4242')).toBe('confirmed');
    expect(outcome('4000000000000002')).toBe('canceled');
    expect(outcome('4000-0000-0000-9995')).toBe('canceled');
    expect(outcome('4000 0000 0000 3220')).toBe('challenge');
    expect(outcome('4000 0000 0000 0069')).toBe('expired');
  });

  it('documents only Luhn-valid, distinct numbers', () => {
    for (const card of TEST_CARDS) expect(isLuhnValid(card.number), card.number).toBe(true);
    expect(new Set(TEST_CARDS.map((card) => card.number)).size).toBe(TEST_CARDS.length);
  });

  it('names the test cards when the number is not one of them', () => {
    const result = checkCard({ number: '4111 1111 1111 1111', expiry: '12/30', cvc: '123' }, NOW);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(say(result.errors.number)).toContain('4111 1111 1111 1111 is not a sandbox test card');
    expect(say(result.errors.number)).toContain('4242 4242 4242 4242 (pays)');
    expect(say(result.errors.number)).toContain('4000 0000 0000 0002 (declined)');
  });

  it('reports every bad field at once', () => {
    const result = checkCard({ number: '12ab', expiry: '13/30', cvc: '12' }, NOW);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual(['cvc', 'expiry', 'number']);
    const empty = checkCard({}, NOW);
    expect(empty).toMatchObject({ ok: false, errors: { number: { key: 'card.error.numberMissing' }, expiry: { key: 'card.error.expiryShape' }, cvc: { key: 'card.error.cvc' } } });
    if (!empty.ok) expect(say(empty.errors.number)).toContain('Enter a card number');
  });

  it('accepts the current month and refuses the month before it (sandbox time)', () => {
    const card = (expiry: string) => checkCard({ number: '4242424242424242', expiry, cvc: '123' }, NOW).ok;
    expect(card('05/26')).toBe(true);
    expect(card('04/26')).toBe(false);
    expect(card('01/2027')).toBe(true);
    expect(card('0526')).toBe(true);
  });

  it('does not accept a CVC of other than 3 digits', () => {
    const cvc = (value: string) => checkCard({ number: '4242424242424242', expiry: '12/30', cvc: value }, NOW).ok;
    expect(cvc('123')).toBe(true);
    expect(cvc('1234')).toBe(false);
    expect(cvc('12a')).toBe(false);
  });
});

describe('parseExpiry', () => {
  it('reads MM/YY, M/YY, MM/YYYY and MMYY', () => {
    expect(parseExpiry('12/30')).toEqual({ month: 12, year: 2030 });
    expect(parseExpiry(' 1 / 29 ')).toEqual({ month: 1, year: 2029 });
    expect(parseExpiry('07/2031')).toEqual({ month: 7, year: 2031 });
    expect(parseExpiry('0731')).toEqual({ month: 7, year: 2031 });
  });

  it('refuses month 0 or 13 and ambiguous digits', () => {
    expect(parseExpiry('00/30')).toBeUndefined();
    expect(parseExpiry('13/30')).toBeUndefined();
    expect(parseExpiry('123')).toBeUndefined();
    expect(parseExpiry('')).toBeUndefined();
  });
});
