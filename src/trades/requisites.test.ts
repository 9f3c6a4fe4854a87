import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POOL } from '../merchants/fixtures.js';
import { LATIN_POOL } from '../merchants/requisite-pools.js';
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

/** Mir (2200-2204), Visa (4) or Mastercard (51-55, 2221-2720): the networks Russian banks issue on. */
const NETWORK_BIN = /^(220[0-4]\d{2}|4\d{5}|5[1-5]\d{4}|2(2[2-9]\d|[3-6]\d{2}|7[01]\d|720)\d{2})$/;

describe('the default requisites pool (property)', () => {
  it('is Cyrillic: names as "Имя Ф." and Russian bank names', () => {
    for (const name of DEFAULT_POOL.names) expect(name).toMatch(/^[А-ЯЁ][а-яё]+ [А-ЯЁ]\.$/);
    for (const bank of DEFAULT_POOL.banks) expect(bank.name).toMatch(/^[А-ЯЁа-яё-]+$/);
    expect(LATIN_POOL.names).toContain('Ivan Petrov');
  });

  it('every BIN is a real network prefix, and every Mir BIN is in 2200-2204', () => {
    const bins = DEFAULT_POOL.banks.flatMap((bank) => bank.bins);
    for (const bin of bins) expect(bin, bin).toMatch(NETWORK_BIN);
    expect(bins.filter((bin) => bin.startsWith('220')).length).toBeGreaterThanOrEqual(DEFAULT_POOL.banks.length);
  });

  it('any seed draws 16-digit Luhn-valid card numbers starting with a BIN of the drawn bank', () => {
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom('any_bank', 'ecom', 'nspk' as const), (seed, type) => {
        const requisites = drawRequisites(createRandom(seed), DEFAULT_POOL, type);
        const bank = DEFAULT_POOL.banks.find((b) => b.name === requisites.bank_name);
        expect(bank).toBeDefined();
        expect(DEFAULT_POOL.names).toContain(requisites.name);
        if (type === 'nspk') {
          expect(requisites.number).toMatch(/^\+79\d{9}$/);
        } else {
          expect(requisites.number).toMatch(/^\d{16}$/);
          expect(bank?.bins).toContain(requisites.number.slice(0, 6));
          expect(isLuhnValid(requisites.number)).toBe(true);
        }
      }),
      { seed: 18, numRuns: 500 },
    );
  });
});
