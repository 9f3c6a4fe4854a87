import { z } from 'zod';
import { textParamsSchema } from '../i18n/coded-text.js';
import { guardedBy, guardFor } from '../store/schema-guard.js';

/** States a trade can be in. `canceled` and `expired` are sandbox assumptions (the document lists only the first three). */
export const TRADE_STATES = ['created', 'ecom', 'confirmed', 'canceled', 'expired'] as const;

/** Every state in lifecycle order with a provider profile's intermediate states: the waiting ones, then `intermediate`, then the final ones. */
export const statesWith = (intermediate: readonly string[]): string[] => [...TRADE_STATES.slice(0, 2), ...intermediate, ...TRADE_STATES.slice(2)];
export const tradeStateSchema = z.enum(TRADE_STATES);
export type TradeState = z.infer<typeof tradeStateSchema>;

/**
 * How a state is named: the sandbox's own states and those a provider profile adds between the
 * waiting and the final ones (`states.intermediate`, e.g. `processing`; docs/provider-profile.md).
 */
export const STATE_NAME = /^[a-z][a-z0-9_]{0,31}$/;
/** The state fields: /openapi.json lists the states the sandbox knows for each (src/openapi/input-checks.ts), not the name pattern. */
export const STATE_FIELDS = new WeakSet<z.ZodType>();

const isStateName = (value: unknown): boolean => typeof value === 'string' && STATE_NAME.test(value);

/** A field that holds a state: any well-formed state name, `error` the message for anything else. */
export function stateField(error?: string): z.ZodString {
  const schema = z.string(error === undefined ? undefined : { error }).regex(STATE_NAME, error === undefined ? undefined : { error });
  STATE_FIELDS.add(schema);
  return guardedBy(schema, isStateName);
}

/**
 * A state as a trade, its history and its callbacks keep it: one of the sandbox's own, or one a
 * provider profile adds. A record keeps the state it was moved to, also after the profile
 * changes (a trade record lists the intermediate states it was in; src/lifecycle/transitions.ts
 * says which ones the profile in force knows).
 */
export const stateNameSchema = stateField();
/** A stored state: one of TRADE_STATES, or a provider profile's intermediate state. */
export type StateName = TradeState | (string & {});

export const TRADE_TYPES = ['any_bank', 'nspk', 'ecom'] as const;
export const tradeTypeSchema = z.enum(TRADE_TYPES);
export type TradeType = z.infer<typeof tradeTypeSchema>;

export const HISTORY_CAUSES = ['create', 'scenario', 'admin', 'page'] as const;

export const historyEntrySchema = z.object({
  from: stateNameSchema.nullable(),
  to: stateNameSchema,
  at: z.string(),
  cause: z.enum(HISTORY_CAUSES),
  /** Why, in English: a scenario's or a payment page's note, or the admin's own text. */
  note: z.string().optional(),
  /** The note's code (src/i18n/server-texts-en.ts), when the sandbox wrote it: a dashboard says it in its language. Absent for an admin's own text. */
  note_code: z.string().optional(),
  /** The values the note's code names (a scenario, a masked card). */
  note_params: textParamsSchema.optional(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const requisitesSchema = z.object({ name: z.string(), number: z.string(), bank_name: z.string() });

/** The fields of the interface document's Trade object but payment_data, in its order. */
const tradeFields = {
  id: z.string(),
  order: z.string(),
  merchant: z.string(),
  state: tradeStateSchema,
  amount_cents: z.number().int(),
  amount_currency: z.literal('RUB'),
  rate: z.number(),
};
/** payment_data of P2P create and of every get: the requisites and the payment page. */
const fullPaymentData = z.strictObject({ name: z.string(), number: z.string(), bank_name: z.string(), url: z.string() });
/** payment_data of ecom create (build): the payment page only. */
const urlPaymentData = z.strictObject({ url: z.string() });

const tradeRecordFields = z.object({
  ...tradeFields,
  state: stateNameSchema,
  type: tradeTypeSchema,
  customer: z.string().optional(),
  callback_url: z.string().optional(),
  return_url: z.string().optional(),
  requisites: requisitesSchema,
  scenario: z.string().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  history: z.array(historyEntrySchema),
  /**
   * The provider profile's intermediate states (states.intermediate) the trade has been in, in
   * the order it entered them: besides the sandbox's own, the states its state and history may
   * hold. Absent until it enters one.
   */
  intermediate: z.array(stateNameSchema).optional(),
});

const SANDBOX_STATES: ReadonlySet<string> = new Set(TRADE_STATES);

/** Whether `state` is one of the sandbox's own states (not a provider profile's intermediate one). */
export const isTradeState = (state: string): state is TradeState => SANDBOX_STATES.has(state);

/** Whether every state of a record (its state and its history's) is the sandbox's own or one of its intermediate states. */
function statesKnown(record: { state: string; history: ReadonlyArray<{ from: string | null; to: string }>; intermediate?: readonly string[] | undefined }): boolean {
  const own = record.intermediate;
  const known = (state: string) => isTradeState(state) || own?.includes(state) === true;
  return known(record.state) && record.history.every((entry) => (entry.from === null || known(entry.from)) && known(entry.to));
}

const recordGuard = guardFor(tradeRecordFields);

/**
 * A trade as the store keeps it: the provider's fields plus what the sandbox needs. Its state and
 * history hold the sandbox's states and the intermediate states it lists, so a store written
 * under a profile with intermediate states loads under any profile, and a damaged state is
 * refused.
 */
export const tradeRecordSchema = guardedBy(
  tradeRecordFields.superRefine((record, ctx) => {
    if (statesKnown(record)) return;
    const own = record.intermediate ?? [];
    const values = statesWith(own);
    const known = (state: string) => isTradeState(state) || own.includes(state);
    if (!known(record.state)) ctx.addIssue({ code: 'invalid_value', values, input: record.state, path: ['state'] });
    record.history.forEach((entry, index) => {
      if (entry.from !== null && !known(entry.from)) ctx.addIssue({ code: 'invalid_value', values, input: entry.from, path: ['history', index, 'from'] });
      if (!known(entry.to)) ctx.addIssue({ code: 'invalid_value', values, input: entry.to, path: ['history', index, 'to'] });
    });
  }),
  (value) => recordGuard(value) && statesKnown(value as Parameters<typeof statesKnown>[0]),
);
export type TradeRecord = z.infer<typeof tradeRecordSchema>;

/** The Trade object of the interface document: exactly these eight keys. */
export const tradeSchema = z.strictObject({
  ...tradeFields,
  payment_data: z.union([fullPaymentData, urlPaymentData]),
});
export type Trade = z.infer<typeof tradeSchema>;

/** The answer of P2P create and of every get (ecom trades included): payment_data has all four fields. */
export const p2pTradeSchema = z.strictObject({ ...tradeFields, payment_data: fullPaymentData });
/** The answer of ecom create (build): payment_data has only the payment page url. */
export const ecomTradeSchema = z.strictObject({ ...tradeFields, payment_data: urlPaymentData });

/** Which response a Trade is rendered for: ecom create carries only `url` in payment_data. */
export type TradeView = 'create' | 'build' | 'get';

export function paymentUrl(publicUrl: string, id: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/pay/${id}`;
}

/** Renders a stored trade as the document's Trade object (key order as in the document). */
export function toTrade(record: TradeRecord, view: TradeView, publicUrl: string): Trade {
  const url = paymentUrl(publicUrl, record.id);
  return {
    id: record.id,
    order: record.order,
    merchant: record.merchant,
    // The type names the sandbox's own states; under a profile with intermediate states the
    // value may also be one of those, as the profile's /openapi.json lists.
    state: record.state as TradeState,
    amount_cents: record.amount_cents,
    amount_currency: record.amount_currency,
    rate: record.rate,
    payment_data: view === 'build' ? { url } : { name: record.requisites.name, number: record.requisites.number, bank_name: record.requisites.bank_name, url },
  };
}
