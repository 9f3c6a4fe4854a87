import { z } from 'zod';

/** Documented sandbox limits (README, "Security and limits"). */
export const LIMITS = {
  maxAmountCents: 10_000_000_000, // 100,000,000 rubles
  maxOrderLength: 255,
  maxCustomerLength: 255,
  maxUrlLength: 2048,
  maxBodyBytes: 64 * 1024,
} as const;

const EXAMPLE_MERCHANT = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51';

function shown(value: unknown): string {
  if (typeof value === 'number' && !Number.isFinite(value)) return `${value} (a number too large to represent)`;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return Array.isArray(value) ? 'a deeply nested array' : 'a deeply nested object';
  }
  if (text === undefined) return String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** A C0 control character (NUL included) or DEL, or a UTF-16 surrogate without its pair. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: it looks for control characters
const UNPRINTABLE = /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Refuses control characters and lone surrogates in a text field, saying where the first one is. */
function printable(name: string) {
  return (value: string, ctx: z.RefinementCtx): void => {
    const match = UNPRINTABLE.exec(value);
    if (!match) return;
    const code = match[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    const what = match[0].length === 1 && code >= 'D800' && code <= 'DFFF' ? 'an unpaired UTF-16 surrogate' : 'a control character';
    ctx.addIssue({
      code: 'custom',
      input: value,
      message: `${name} must be printable text; it holds ${what} (U+${code}) at position ${match.index}. Remove it: control characters and broken Unicode are not accepted.`,
      continue: false,
    });
  };
}

const missing = (field: string, what: string) => `${field} is required: ${what}.`;

export const merchantField = z.guid({
  error: (iss) =>
    iss.input === undefined
      ? missing('merchant', `your merchant UUID, e.g. "${EXAMPLE_MERCHANT}"`)
      : `merchant must be your merchant UUID as a string, e.g. "${EXAMPLE_MERCHANT}"; got ${shown(iss.input)}.`,
});

const orderField = z
  .string({
    error: (iss) =>
      iss.input === undefined
        ? missing('order', 'the trade identifier in your system, e.g. "order-1001"')
        : `order must be a string (the trade identifier in your system); got ${shown(iss.input)}.${typeof iss.input === 'number' || typeof iss.input === 'boolean' ? ` Send "${String(iss.input)}" in quotes.` : ''}`,
  })
  .refine((order) => order.trim() !== '', { error: 'order must not be empty or blank: send the trade identifier in your system, e.g. "order-1001".', abort: true })
  .max(LIMITS.maxOrderLength, { error: `order must be at most ${LIMITS.maxOrderLength} characters.`, abort: true })
  .superRefine(printable('order'));

/**
 * A fractional amount_cents has two readings, and the message gives both: rubles (312.5 is
 * 312 rubles 50 kopecks, so 31250) or kopecks already (then it must be rounded: 312 or 313).
 */
function fractionalAmountMessage(input: number): string {
  const lead = `amount_cents must be an integer number of kopecks, not rubles; got ${input}.`;
  const asKopecks = `If ${input} is already in kopecks, a kopeck cannot be split: send ${Math.floor(input)} or ${Math.ceil(input)}.`;
  const kopecks = Math.round(input * 100);
  if (input < 0 || Math.abs(input * 100 - kopecks) > 1e-6 || kopecks === 0) {
    return `${lead} As rubles it is not a whole number of kopecks either (a ruble amount has at most two decimals). ${asKopecks}`;
  }
  const [rubles, rest] = [Math.floor(kopecks / 100), kopecks % 100];
  return `${lead} If you meant ${rubles}.${String(rest).padStart(2, '0')} rubles (${rubles} rubles ${rest} kopecks), send ${kopecks}. ${asKopecks}`;
}

function amountMessage(input: unknown): string {
  if (input === undefined) return missing('amount_cents', 'the amount as an integer number of kopecks (3 rubles 12 kopecks is 312)');
  if (typeof input === 'number' && Number.isFinite(input) && !Number.isInteger(input)) return fractionalAmountMessage(input);
  if (typeof input === 'number' && !Number.isSafeInteger(input)) {
    const got = Number.isFinite(input) ? `a number past ${Number.MAX_SAFE_INTEGER}, the largest integer JSON numbers carry exactly` : shown(input);
    return `amount_cents must be an integer number of kopecks no larger than ${LIMITS.maxAmountCents}; got ${got}.`;
  }
  if (typeof input === 'string') {
    return `amount_cents must be a JSON integer of kopecks, not a string: send 312, not "312". Got ${shown(input)}.`;
  }
  return `amount_cents must be an integer number of kopecks (3 rubles 12 kopecks is 312); got ${shown(input)}.`;
}

const amountField = z
  .int({ error: (iss) => amountMessage(iss.input), abort: true })
  .min(1, 'amount_cents must be a positive number of kopecks (at least 1).')
  .max(LIMITS.maxAmountCents, `amount_cents must be at most ${LIMITS.maxAmountCents} kopecks (the sandbox's documented maximum).`);

const currencyField = z.literal('RUB', {
  error: (iss) =>
    iss.input === undefined
      ? missing('amount_currency', '"RUB", the only currency the service accepts')
      : typeof iss.input === 'string' && iss.input.toUpperCase() === 'RUB'
        ? `amount_currency must be exactly "RUB" in capitals; got ${shown(iss.input)}.`
        : `amount_currency must be "RUB", the only currency the service accepts; got ${shown(iss.input)}.`,
});

/**
 * An optional field sent as JSON `null` counts as absent (sandbox assumption): Python's None,
 * PHP's null, Jackson and Go pointers write nulls by default. Its signature slot is empty.
 */
const nullAsAbsent = <T extends z.ZodType>(schema: T) =>
  schema
    .nullish()
    .transform((value) => value ?? undefined)
    .optional();

const customerField = (name: string) =>
  nullAsAbsent(
    z
      .string({ error: (iss) => `${name} must be a string (any identifier of the payer in your system); got ${shown(iss.input)}.` })
      .max(LIMITS.maxCustomerLength, { error: `${name} must be at most ${LIMITS.maxCustomerLength} characters.`, abort: true })
      .superRefine(printable(name)),
  );

const urlField = (name: string, what: string) =>
  nullAsAbsent(
    z
      .string({ error: (iss) => `${name} must be a string holding an absolute http(s) URL (${what}); got ${shown(iss.input)}.` })
      .max(LIMITS.maxUrlLength, { error: `${name} must be at most ${LIMITS.maxUrlLength} characters.`, abort: true })
      .superRefine(printable(name))
      .refine(isHttpUrl, {
        error: (iss) =>
          `${name} must be an absolute http:// or https:// URL (${what}), e.g. "https://shop.example/${name === 'callback_url' ? 'callbacks/deposit' : 'thanks'}"; got ${shown(iss.input)}.${iss.input === '' ? ' Leave the field out (or send null) when there is none.' : ''}`,
      }),
  );

export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

const baseShape = {
  merchant: merchantField,
  order: orderField,
  amount_cents: amountField,
  amount_currency: currencyField,
  customer: customerField('customer'),
  cusotmer: customerField('cusotmer'),
  callback_url: urlField('callback_url', 'it receives a POST when the trade status changes'),
  return_url: urlField('return_url', 'the payer is sent there after paying'),
};

function noSpellingConflict(value: { customer?: string | undefined; cusotmer?: string | undefined }, ctx: z.RefinementCtx): void {
  if (value.customer !== undefined && value.cusotmer !== undefined && value.customer !== value.cusotmer) {
    ctx.addIssue({
      code: 'custom',
      path: ['cusotmer'],
      message: `customer and cusotmer are two spellings of one field and were sent with different values (${shown(value.customer)} and ${shown(value.cusotmer)}). Send one of them.`,
    });
  }
}

export const createRequestSchema = z
  .object({
    ...baseShape,
    type: z.enum(['any_bank', 'nspk'], {
      error: (iss) =>
        iss.input === 'ecom'
          ? 'type "ecom" is an ecom deposit: create it with POST /api/v1/trades/deposit/build. This endpoint takes "any_bank" or "nspk".'
          : iss.input === undefined
            ? missing('type', '"any_bank" (card transfer) or "nspk" (fast payment by phone)')
            : `type must be "any_bank" (card transfer) or "nspk" (fast payment by phone); got ${shown(iss.input)}.`,
    }),
  })
  .superRefine(noSpellingConflict);

export const buildRequestSchema = z
  .object({
    ...baseShape,
    type: z.literal('ecom', {
      error: (iss) =>
        iss.input === 'any_bank' || iss.input === 'nspk'
          ? `type ${shown(iss.input)} is a P2P deposit: create it with POST /api/v1/trades/deposit/create. This endpoint takes only "ecom".`
          : iss.input === undefined
            ? missing('type', '"ecom"')
            : `type must be "ecom" on this endpoint; got ${shown(iss.input)}.`,
    }),
  })
  .superRefine(noSpellingConflict);

export type CreateRequest = z.infer<typeof createRequestSchema>;
export type BuildRequest = z.infer<typeof buildRequestSchema>;
export type DepositRequest = CreateRequest | BuildRequest;

export const getParamsSchema = z.object({ merchant: z.string(), uuid: z.string() });
