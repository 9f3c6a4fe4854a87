import { z } from 'zod';
import type { TradeState } from '../trades/trade.js';
import { groupCard } from './format.js';
import { CARD_NOTES } from '../i18n/card-notes.js';
import { type CodedText, codedText } from '../i18n/coded-text.js';
import type { PAY_EN, PayKey } from '../i18n/pay-en.js';
import type { Params, Translate } from '../i18n/translator.js';

/** What a test card does to an ecom trade. `challenge` asks for a 3-D Secure code first. */
export type CardOutcome = Extract<TradeState, 'confirmed' | 'canceled' | 'expired'> | 'challenge';

export interface TestCard {
  number: string;
  outcome: CardOutcome;
  /** What the payer is told (a catalogue key); the trade's history keeps it as a note (cardNote). */
  reason: keyof typeof CARD_NOTES | 'card.reason.challenge';
}

/**
 * The sandbox's test cards (any future MM/YY expiry, any 3-digit CVC). Numbers follow the
 * habits of other payment sandboxes so they are easy to remember; all pass the Luhn check.
 */
export const TEST_CARDS: readonly TestCard[] = [
  { number: '4242424242424242', outcome: 'confirmed', reason: 'card.reason.approved' },
  { number: '4000000000000002', outcome: 'canceled', reason: 'card.reason.declined' },
  { number: '4000000000009995', outcome: 'canceled', reason: 'card.reason.funds' },
  { number: '4000000000003220', outcome: 'challenge', reason: 'card.reason.challenge' },
  { number: '4000000000000069', outcome: 'expired', reason: 'card.reason.timeout' },
];

/** The 3-D Secure code that confirms a challenged payment; any other code declines it. */
export const CHALLENGE_CODE = '1111';

/** "4242 4242 4242 4242 (pays), …" in the page's language. */
export function testCardsHint(t: Translate<typeof PAY_EN>): string {
  return TEST_CARDS.map((card) => `${groupCard(card.number)} (${t(`card.outcome.${card.outcome}`)})`).join(', ');
}

/** "4000 •••• 0002": how a card is named in notes and on the 3-D Secure page. */
export function maskCard(number: string): string {
  return `${number.slice(0, 4)} •••• ${number.slice(-4)}`;
}

/**
 * The note kept in the trade's history: "Test card 4000 •••• 0002: Card declined…" in English,
 * with its code and the masked card (a dashboard says it in its language).
 */
export function cardNote(number: string, reason: keyof typeof CARD_NOTES): CodedText {
  return codedText(CARD_NOTES[reason], { card: maskCard(number) });
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

/** A field's problem as a catalogue key and its parameters; the page says it in its language (adding `{cards}`, the test cards). */
export interface CardError {
  key: PayKey;
  params?: Params;
}

export type CardCheck = { ok: true; card: TestCard } | { ok: false; errors: Partial<Record<CardField, CardError>> };

/**
 * Checks a card form against the sandbox's rules at sandbox time `now`: a 12-19 digit
 * number that is one of TEST_CARDS, a MM/YY expiry not before the current month, a 3-digit
 * CVC. Every problem is reported at once, per field.
 */
/** A card number's digits, written with spaces or dashes as the card form takes them (4000 0000 0000 3220). */
export const cardDigits = (number: string): string => number.replace(/[\s-]/g, '');

export function checkCard(form: CardForm, now: number): CardCheck {
  const errors: Partial<Record<CardField, CardError>> = {};

  const digits = cardDigits(form.number ?? '');
  if (digits === '') {
    errors.number = { key: 'card.error.numberMissing' };
  } else if (!/^\d{12,19}$/.test(digits)) {
    errors.number = { key: 'card.error.numberShape' };
  }

  const expiry = parseExpiry(form.expiry ?? '');
  if (!expiry) {
    errors.expiry = { key: 'card.error.expiryShape' };
  } else {
    const today = new Date(now);
    const current = today.getUTCFullYear() * 12 + today.getUTCMonth();
    if (expiry.year * 12 + (expiry.month - 1) < current) {
      errors.expiry = {
        key: 'card.error.expired',
        params: { expiry: `${String(expiry.month).padStart(2, '0')}/${String(expiry.year % 100).padStart(2, '0')}`, example: `12/${String((today.getUTCFullYear() + 5) % 100).padStart(2, '0')}` },
      };
    }
  }

  if (!/^\d{3}$/.test((form.cvc ?? '').trim())) {
    errors.cvc = { key: 'card.error.cvc' };
  }

  if (errors.number === undefined && digits !== '') {
    const card = TEST_CARDS.find((candidate) => candidate.number === digits);
    if (!card) {
      errors.number = { key: 'card.error.notTestCard', params: { number: groupCard(digits) } };
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
