import { z } from 'zod';
import { callbackBehaviourSchema } from '../callbacks/behaviour.js';
import { DURATION_HINT } from '../clock/duration.js';
import { durationSchema } from '../clock/duration-schema.js';
import { DEFAULT_TABLE, type TransitionTable } from '../lifecycle/transitions.js';
import { TRADE_TYPES } from '../trades/trade.js';
import { checkTimeline } from './check-timeline.js';
import { patternSize, sizeProblem } from './scenario-pattern.js';

/** The create request header that picks a scenario by name, whatever the request holds. */
export const SCENARIO_HEADER = 'X-Sandbox-Scenario';

/** Create responses wait at most this long (wall clock), so a typo cannot hang a client for hours. */
export const MAX_RESPONSE_DELAY = 5 * 60_000;

const shown = (value: unknown) => {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 40 ? `${text.slice(0, 37)}...` : text;
};

/**
 * A regular expression, checked here only for its estimated size (cheap); whether RE2 compiles
 * it is checked per file by checkPatterns(), once the sizes of all its patterns are known.
 */
const regexSource = (example: string) =>
  z.string({ error: `must be a regular expression in quotes, e.g. "${example}"` }).superRefine((value, ctx) => {
    const problem = sizeProblem(patternSize(value));
    if (problem) ctx.addIssue({ code: 'custom', message: `${shown(value)} cannot be matched: ${problem}` });
  });

const typeName = z.enum(TRADE_TYPES, { error: (iss) => `must be one of ${TRADE_TYPES.join(', ')}; got ${shown(iss.input)}` });
const merchantId = z.guid({ error: (iss) => `must be a merchant UUID such as 6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51; got ${shown(iss.input)}` });
const kopecks = () => z.int({ error: (iss) => `must be a whole number of kopecks (3 rubles 12 kopecks is 312); got ${shown(iss.input)}` }).min(0, 'must not be negative');

export const amountMatchSchema = z
  .union(
    [
      kopecks().min(1, 'must be a positive number of kopecks').meta({ description: 'Exactly this amount_cents.' }),
      z
        .strictObject({
          min: kopecks().optional().meta({ description: 'Smallest amount_cents that matches (inclusive).' }),
          max: kopecks().optional().meta({ description: 'Largest amount_cents that matches (inclusive).' }),
          last_digits: z
            .string({ error: 'must be digits in quotes, e.g. "13" (quoted so that leading zeros are kept)' })
            .regex(/^\d{1,9}$/, 'must be 1 to 9 digits in quotes, e.g. "13"')
            .optional()
            .meta({ description: 'amount_cents ends in these digits, e.g. "13" matches 1013 and 250013.' }),
        })
        .superRefine((value, ctx) => {
          const range = value.min !== undefined || value.max !== undefined;
          if (value.last_digits !== undefined && range) {
            ctx.addIssue({ code: 'custom', message: 'use either last_digits or min/max, not both (write two scenarios for two conditions)' });
          } else if (value.last_digits === undefined && !range) {
            ctx.addIssue({ code: 'custom', message: 'must hold min and/or max (a range) or last_digits, e.g. {min: 100000, max: 500000} or {last_digits: "13"}' });
          }
          if (value.min !== undefined && value.max !== undefined && value.min > value.max) {
            ctx.addIssue({ code: 'custom', path: ['min'], message: `must not be larger than max (${value.min} > ${value.max})` });
          }
        }),
    ],
    { error: (iss) => `must be an amount in kopecks (e.g. 1313), a range ({min: 100000, max: 500000}) or last digits ({last_digits: "13"}); got ${shown(iss.input)}` },
  )
  .meta({ description: 'amount_cents: an exact number of kopecks, a {min, max} range, or {last_digits: "13"}.' });

export const matchSchema = z
  .strictObject(
    {
      type: z
        .union([typeName, z.array(typeName).min(1, 'must list at least one type')], { error: `must be a trade type (${TRADE_TYPES.join(', ')}) or a list of them` })
        .optional()
        .meta({ description: 'Trade type, or a list of types. A type the endpoint does not create simply never matches there.' }),
      merchant: z
        .union([merchantId, z.array(merchantId).min(1, 'must list at least one merchant')], { error: 'must be a merchant UUID or a list of them' })
        .optional()
        .meta({ description: 'Merchant UUID, or a list of them.' }),
      amount: amountMatchSchema.optional(),
      order: regexSource('^confirm-')
        .optional()
        .meta({ description: 'Regular expression (RE2 syntax, matched in linear time) the order must match, e.g. "^confirm-" (anchor it: unanchored patterns match anywhere).' }),
      customer: z
        .union(
          [
            z.string().meta({ description: "Exactly this customer (the request's customer or cusotmer field)." }),
            z.strictObject({ regex: regexSource('^vip-').meta({ description: 'Regular expression the customer must match.' }) }),
          ],
          { error: 'must be an exact customer string, or {regex: "^vip-"}' },
        )
        .optional()
        .meta({ description: 'Exact customer string, or {regex: "..."}. A request without customer does not match.' }),
    },
    { error: 'must be a mapping of conditions, e.g. {order: "^confirm-"}' },
  )
  .superRefine((value, ctx) => {
    if (Object.values(value).every((field) => field === undefined)) {
      ctx.addIssue({
        code: 'custom',
        message: 'must hold at least one of type, merchant, amount, order, customer. Leave match out for a scenario picked only by the X-Sandbox-Scenario header; use order: "" to match every trade',
      });
    }
  })
  .meta({ description: 'Which create requests this scenario takes. Every condition given must hold. Leave it out for a scenario picked only by the X-Sandbox-Scenario header.' });

export const respondSchema = z
  .strictObject(
    {
      status: z
        .literal([401, 422, 503], {
          error: (iss) => `must be 401 or 422 (the error statuses the create endpoints document), or 503 (the provider is unavailable); got ${shown(iss.input)}`,
        })
        .meta({ description: 'HTTP status of the forced answer: 401, 422, or 503 for an outage.' }),
      code: z
        .string({ error: 'must be a string such as "trade_rejected"' })
        .regex(/^[a-z][a-z0-9_]*$/, 'must be lower_snake_case, e.g. "trade_rejected"')
        .optional()
        .meta({ description: 'error.code of the answer; default "scenario_unauthorized" (401) or "scenario_rejected" (422).' }),
      message: z.string({ error: 'must be a string: the error message the merchant sees' }).min(1, 'must not be empty').meta({ description: 'error.message of the answer.' }),
      field: z.string().min(1, 'must not be empty').optional().meta({ description: 'When set, error.details holds one entry for this field with the message.' }),
      retry_after: durationSchema.optional().meta({ description: `Only with status 503: sent as the Retry-After header, in whole seconds; ${DURATION_HINT}.` }),
      first_only: z
        .boolean({ error: 'must be true or false' })
        .optional()
        .meta({ description: "Only an order's first create gets this answer; a retry with the same merchant and order goes through (and creates the trade)." }),
    },
    { error: 'must be a mapping such as {status: 422, code: "trade_rejected", message: "..."}' },
  )
  .superRefine((value, ctx) => {
    if (value.retry_after !== undefined && value.status !== 503) {
      ctx.addIssue({ code: 'custom', path: ['retry_after'], message: `goes with status 503 only (Retry-After tells a client when to come back after an outage); got status ${value.status}` });
    }
  })
  .meta({ description: 'Answer the create request with this error envelope instead of creating a trade. Nothing is stored.' });

export const answerSchema = z
  .strictObject(
    {
      lost: z
        .literal(true, { error: 'must be true: the trade is saved, then the connection is closed with no HTTP answer' })
        .optional()
        .meta({ description: 'The trade is saved, then the connection is closed without any HTTP answer.' }),
      delay: responseDelaySchemaAfterSave().optional(),
    },
    { error: 'must be a mapping such as {lost: true} or {delay: "65s"}' },
  )
  .superRefine((value, ctx) => {
    if ((value.lost === undefined) === (value.delay === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'must hold exactly one of lost (true) or delay (a duration)' });
    }
  })
  .meta({ description: 'What happens to the create answer after the trade is saved: lost (no answer at all) or sent after a delay.' });

function responseDelaySchemaAfterSave() {
  return durationSchema
    .refine((value) => value <= MAX_RESPONSE_DELAY, `must be at most 5m (the answer waits in real time)`)
    .meta({ description: `The trade is saved first; the 201 answer comes this long after (real time, even with --clock manual); ${DURATION_HINT}.` });
}

const responseDelaySchema = durationSchema
  .refine((value) => value <= MAX_RESPONSE_DELAY, `must be at most 5m (the create answer waits in real time)`)
  .meta({ description: `Wait this long (real time, even with --clock manual) before answering the create request; ${DURATION_HINT}.` });

/** The schemas of a scenario under a transition table: the states a step may name are the ones it knows. */
function buildSchemas(table: TransitionTable) {
  const states = table.states as [string, ...string[]];
  const timelineStepSchema = z
    .strictObject(
      {
        after: durationSchema.meta({ description: `Time after the trade was created (sandbox clock); ${DURATION_HINT}.` }),
        state: z.enum(states, { error: (iss) => `must be one of ${states.join(', ')}; got ${shown(iss.input)}` }).meta({ description: 'State the trade moves to.' }),
        note: z.string().optional().meta({ description: 'Kept in the trade history next to "scenario <name>".' }),
      },
      { error: 'must be a step such as {after: "30s", state: "confirmed"}' },
    )
    .meta({ description: 'Move the trade to `state` at `after` past its creation. A step the trade can no longer take (paid meanwhile) is skipped.' });

  const scenarioSchema = z
    .strictObject(
      {
        name: z
          .string({ error: 'must be a string: the scenario name, also the X-Sandbox-Scenario header value' })
          .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit (it is sent as a header value)')
          .meta({ description: 'Unique name; the value of the X-Sandbox-Scenario header that picks this scenario.' }),
        description: z
          .string({ error: 'must be a string saying what the scenario is for' })
          .min(1, 'must not be empty')
          .meta({ description: 'What the scenario is for; shown in listings and the magic-values table.' }),
        description_ru: z
          .string({ error: 'must be a string: the description in Russian' })
          .min(1, 'must not be empty')
          .optional()
          .meta({ description: 'The description in Russian, shown by the Russian dashboard (which shows `description` when this is left out).' }),
        match: matchSchema.optional(),
        respond: respondSchema.optional(),
        delay: responseDelaySchema.optional(),
        answer: answerSchema.optional(),
        timeline: z
          .array(timelineStepSchema, { error: 'must be a list of steps such as [{after: "30s", state: "confirmed"}]' })
          .optional()
          .meta({ description: 'State changes scheduled on the sandbox clock, in time order.' }),
        callbacks: callbackBehaviourSchema
          .optional()
          .meta({ description: 'How the callbacks of this trade misbehave: fail_first (N), delay (duration), duplicate (true), overlap (true), bad_signature (true).' }),
      },
      { error: 'must be a scenario: a mapping with at least name and description' },
    )
    .superRefine((value, ctx) => {
      if (value.respond) {
        for (const key of ['timeline', 'callbacks', 'answer'] as const) {
          if (value[key] !== undefined) {
            ctx.addIssue({
              code: 'custom',
              path: [key],
              message: `cannot be used with respond: a forced ${value.respond.status} stores no trade, so there is nothing to ${key === 'timeline' ? 'move' : key === 'callbacks' ? 'call back' : 'answer after saving'}. Remove one of them`,
            });
          }
        }
      }
      if (value.timeline) {
        for (const problem of checkTimeline(value.timeline, table)) ctx.addIssue({ code: 'custom', path: ['timeline', ...problem.path], message: problem.message });
      }
    });

  const scenarioFileSchema = z
    .strictObject(
      {
        scenarios: z.array(scenarioSchema, { error: 'must be a list of scenarios (each starting with "- name: ...")' }).min(1, 'must list at least one scenario'),
      },
      { error: 'must be a mapping with a "scenarios:" list' },
    )
    .meta({
      title: 'deposit-sandbox scenarios',
      description: 'Scenarios that script trades of the deposit sandbox. First match wins; files of --scenarios <dir> go before the bundled ones.',
    });
  return { timelineStepSchema, scenarioSchema, scenarioFileSchema };
}

const built = new WeakMap<TransitionTable, ReturnType<typeof buildSchemas>>();

/**
 * The scenario schemas under a provider profile's transition table (src/lifecycle/transitions.ts):
 * a timeline step may name the profile's intermediate states, and the steps must be moves its
 * table allows. Built once per table.
 */
export function scenarioSchemas(table: TransitionTable = DEFAULT_TABLE): ReturnType<typeof buildSchemas> {
  let schemas = built.get(table);
  if (!schemas) {
    schemas = buildSchemas(table);
    built.set(table, schemas);
  }
  return schemas;
}

/** The schemas under the `sandbox` profile (no intermediate states): the published scenarios/schema.json. */
export const { timelineStepSchema, scenarioSchema, scenarioFileSchema } = scenarioSchemas(DEFAULT_TABLE);

export type ScenarioFile = z.output<typeof scenarioFileSchema>;
export type ScenarioFileInput = z.input<typeof scenarioFileSchema>;
export type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioSchema>;
export type ScenarioMatch = z.output<typeof matchSchema>;
export type AmountMatch = z.output<typeof amountMatchSchema>;
export type ForcedResponse = z.output<typeof respondSchema>;
export type AnswerAfterSave = z.output<typeof answerSchema>;
export type TimelineStep = z.output<typeof timelineStepSchema>;
