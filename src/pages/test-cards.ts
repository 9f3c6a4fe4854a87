import { z } from 'zod';
import type { TradeState } from '../trades/trade.js';
import { groupCard } from './format.js';

/** What a test card does to an ecom trade. `pending` leaves the trade as it is. */
export type CardOutcome = Extract<TradeState, 'confirmed' | 'canceled' | 'expired'> | 'pending';

export interface TestCard {
  number: string;
  outcome: CardOutcome;
  /** What the payer is told, and the note kept in the trade's history. */
  reason: string;
}

/**
 * The sandbox's test cards (any future MM/YY expiry, any 3-digit CVC). Numbers follow the
 * habits of other payment sandboxes so they are easy to remember; all pass the Luhn check.
 */
export const TEST_CARDS: readonly TestCard[] = [
  { number: '4242424242424242', outcome: 'confirmed', reason: 'Payment approved.' },
  { number: '4000000000000002', outcome: 'canceled', reason: 'Card declined by the issuer (generic decline).' },
  { number: '4000000000009995', outcome: 'canceled', reason: 'Card declined: insufficient funds.' },
  { number: '4000000000003220', outcome: 'pending', reason: 'The bank is waiting for the payer to confirm (3-D Secure); the trade stays unpaid.' },
  { number: '4000000000000069', outcome: 'expired', reason: 'The bank did not answer in time; the payment timed out and the trade expired.' },
];

export const TEST_CARDS_HINT = TEST_CARDS.map((card) => `${groupCard(card.number)} (${describeOutcome(card.outcome)})`).join(', ');

export function describeOutcome(outcome: CardOutcome): string {
  switch (outcome) {
    case 'confirmed':
      return 'pays';
    case 'canceled':
      return 'declined';
    case 'pending':
      return 'stays pending';
    case 'expired':
      return 'times out';
  }
}

const MAX_FIELD = 64;

/** The card form as posted (plain HTML form, every field a string, maybe missing). */
export const cardFormSchema = z.object({
  number: z.string().max(MAX_FIELD).optional(),
  expiry: z.string().max(MAX_FIELD).optional(),
  cvc: z.string().max(MAX_FIELD).optional(),
});
export type CardForm = z.infer<typeof cardFormSchema>;

export type CardField = 'number' | 'expiry' | 'cvc';

export type CardCheck =
  | { ok: true; card: TestCard }
  | { ok: false; errors: Partial<Record<CardField, string>> };

/**
 * Checks a card form against the sandbox's rules at sandbox time `now`: a 12-19 digit
 * number that is one of TEST_CARDS, a MM/YY expiry not before the current month, a 3-digit
 * CVC. Every problem is reported at once, per field.
 */
export function checkCard(form: CardForm, now: number): CardCheck {
  const errors: Partial<Record<CardField, string>> = {};

  const digits = (form.number ?? '').replace(/[\s-]/g, '');
  if (digits === '') {
    errors.number = `Enter a card number. Test cards: ${TEST_CARDS_HINT}.`;
  } else if (!/^\d{12,19}$/.test(digits)) {
    errors.number = `A card number is 12 to 19 digits (spaces allowed), e.g. 4242 4242 4242 4242.`;
  }

  const expiry = parseExpiry(form.expiry ?? '');
  if (!expiry) {
    errors.expiry = 'Enter the expiry as MM/YY, e.g. 12/30.';
  } else {
    const today = new Date(now);
    const current = today.getUTCFullYear() * 12 + today.getUTCMonth();
    if (expiry.year * 12 + (expiry.month - 1) < current) {
      errors.expiry = `This card expired (${String(expiry.month).padStart(2, '0')}/${String(expiry.year % 100).padStart(2, '0')}). Use any future MM/YY, e.g. 12/${String((today.getUTCFullYear() + 5) % 100).padStart(2, '0')}.`;
    }
  }

  if (!/^\d{3}$/.test((form.cvc ?? '').trim())) {
    errors.cvc = 'The CVC is the 3 digits on the back of the card; any 3 digits work here, e.g. 123.';
  }

  if (errors.number === undefined && digits !== '') {
    const card = TEST_CARDS.find((candidate) => candidate.number === digits);
    if (!card) {
      errors.number = `${groupCard(digits)} is not a sandbox test card. Use one of: ${TEST_CARDS_HINT}.`;
    } else if (Object.keys(errors).length === 0) {
      return { ok: true, card };
    }
  }
  return { ok: false, errors };
}

/** "MM/YY", "M/YY", "MM/YYYY", "MMYY" → { month, year }, or undefined. */
export function parseExpiry(value: string): { month: number; year: number } | undefined {
  const match = /^\s*(?:(\d{1,2})\s*\/\s*(\d{2}|\d{4})|(\d{2})(\d{2}))\s*$/.exec(value);
  if (!match) return undefined;
  const month = Number(match[1] ?? match[3]);
  const rawYear = match[2] ?? match[4] ?? '';
  const year = rawYear.length === 2 ? 2000 + Number(rawYear) : Number(rawYear);
  if (month < 1 || month > 12) return undefined;
  return { month, year };
}
