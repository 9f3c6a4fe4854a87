import type { RequisitesPool } from '../merchants/fixtures.js';
import { pick, type Random } from './random.js';

export interface Requisites {
  name: string;
  number: string;
  bank_name: string;
}

/** The Luhn check digit that completes `partial`. */
export function luhnCheckDigit(partial: string): number {
  let sum = 0;
  for (let i = 0; i < partial.length; i++) {
    let digit = Number(partial[partial.length - 1 - i]);
    if (i % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return (10 - (sum % 10)) % 10;
}

export function isLuhnValid(number: string): boolean {
  return /^\d{2,}$/.test(number) && luhnCheckDigit(number.slice(0, -1)) === Number(number.at(-1));
}

/** `count` (at most 12) random decimal digits, drawn at once. */
function digits(random: Random, count: number): string {
  return String(random.int(0, 10 ** count - 1)).padStart(count, '0');
}

/** A 16-digit Luhn-valid card number starting with one of the bank's BINs. */
export function cardNumber(random: Random, bins: readonly string[]): string {
  const partial = pick(random, bins) + digits(random, 9);
  return partial + String(luhnCheckDigit(partial));
}

/** A Russian mobile number in E.164 form: +79XXXXXXXXX. */
export function phoneNumber(random: Random): string {
  return `+79${digits(random, 9)}`;
}

/**
 * Requisites the payer is told to pay to: a card for `any_bank` (and for `ecom`, whose
 * get response carries them too), a phone number for `nspk`.
 */
export function drawRequisites(random: Random, pool: RequisitesPool, type: 'any_bank' | 'nspk' | 'ecom'): Requisites {
  const bank = pick(random, pool.banks);
  const name = pick(random, pool.names);
  const number = type === 'nspk' ? phoneNumber(random) : cardNumber(random, bank.bins);
  return { name, number, bank_name: bank.name };
}
