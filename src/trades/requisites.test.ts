import { describe, expect, it } from 'vitest';
import { DEFAULT_POOL } from '../merchants/fixtures.js';
import { createRandom } from './random.js';
import { cardNumber, drawRequisites, isLuhnValid, luhnCheckDigit, phoneNumber } from './requisites.js';

describe('Luhn', () => {
  it('knows the check digits of well-known test cards', () => {
    expect(luhnCheckDigit('424242424242424')).toBe(2);
    expect(luhnCheckDigit('400000000000000')).toBe(2);
    expect(luhnCheckDigit('7992739871')).toBe(3);
    expect(isLuhnValid('4242424242424242')).toBe(true);
    expect(isLuhnValid('79927398713')).toBe(true);
  });

  it('refuses a wrong check digit and non-digits', () => {
    expect(isLuhnValid('4242424242424241')).toBe(false);
    expect(isLuhnValid('4242 4242 4242 4242')).toBe(false);
    expect(isLuhnValid('')).toBe(false);
  });
});

describe('card numbers', () => {
  it('are 16 digits, Luhn-valid and start with one of the bank BINs', () => {
    const random = createRandom(7);
    for (let i = 0; i < 500; i++) {
      const number = cardNumber(random, ['220220', '427638']);
      expect(number).toMatch(/^(220220|427638)\d{10}$/);
      expect(isLuhnValid(number)).toBe(true);
    }
  });
});

describe('phone numbers', () => {
  it('are Russian mobile numbers in E.164 form', () => {
    const random = createRandom(7);
    for (let i = 0; i < 200; i++) expect(phoneNumber(random)).toMatch(/^\+79\d{9}$/);
  });
});

describe('drawRequisites', () => {
  it('draws a card for any_bank and ecom, a phone for nspk, with a name and bank from the pool', () => {
    const random = createRandom(1);
    const names = new Set(DEFAULT_POOL.names);
    const banks = new Set(DEFAULT_POOL.banks.map((b) => b.name));
    for (const type of ['any_bank', 'ecom', 'nspk'] as const) {
      for (let i = 0; i < 50; i++) {
        const requisites = drawRequisites(random, DEFAULT_POOL, type);
        expect(names.has(requisites.name)).toBe(true);
        expect(banks.has(requisites.bank_name)).toBe(true);
        if (type === 'nspk') expect(requisites.number).toMatch(/^\+79\d{9}$/);
        else {
          const bins = DEFAULT_POOL.banks.find((b) => b.name === requisites.bank_name)?.bins ?? [];
          expect(bins).toContain(requisites.number.slice(0, 6));
          expect(isLuhnValid(requisites.number)).toBe(true);
        }
      }
    }
  });
});
