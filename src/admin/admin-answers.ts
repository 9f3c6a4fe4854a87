import { z } from 'zod';
import { adminTradeSchema } from './admin-trade.js';
import { AUTH_MODES } from '../auth/authenticate.js';
import { attemptSchema, callbackEventSchema } from '../store/callback-records.js';
import { jobSchema } from '../store/jobs.js';
import { merchantSchema } from '../merchants/fixtures.js';
import { scenarioSummarySchema } from '../scenarios/describe-scenario.js';
import { historyEntrySchema } from '../trades/trade.js';
import { named } from '../openapi/schema-name.js';

/**
 * The answers of the admin API under /_sandbox (see the routes in src/admin). They type the
 * admin client and are the response schemas of /openapi.json, whose test checks them
 * against the routes' real answers.
 */

// The shapes these answers share, named in /openapi.json's components.
named('AdminTrade', adminTradeSchema, 'A Trade plus what QA needs; allowed lists the states it may move to now.');
named('HistoryEntry', historyEntrySchema);
named('CallbackEvent', callbackEventSchema, 'One state change of one trade, sent to its callback_url until delivered or failed.');
named('Attempt', attemptSchema);
named('Job', jobSchema, 'A step the sandbox runs at a sandbox time (due: ms since epoch).');
named('ScenarioSummary', scenarioSummarySchema);

const clockModeSchema = z.enum(['real', 'manual']);

/** GET /_sandbox/health: only `status` without the admin token (when one is set). */
export const healthAnswerSchema = named(
  'HealthAnswer',
  z.object({
    status: z.literal('ok'),
    trades: z.number().int().optional(),
    auth: z.enum(AUTH_MODES).optional(),
    clock: z.object({ mode: clockModeSchema, now: z.string() }).optional(),
    /** Where the store lives: a file path, or "memory". */
    store: z.string().optional(),
    /** Create requests waiting out a scenario's delay now (shutdown waits for them). */
    create_delays: z.number().int().optional(),
    /** The process's resident memory, in MB. */
    rss_mb: z.number().optional(),
  }),
);
export type HealthAnswer = z.infer<typeof healthAnswerSchema>;

/** GET /_sandbox/trades */
export const tradesAnswerSchema = named(
  'TradesAnswer',
  z.object({
    /** Newest first, one page. */
    trades: z.array(adminTradeSchema),
    /** How many trades match the filters in all. */
    total: z.number().int(),
  }),
);
export type TradesAnswer = z.infer<typeof tradesAnswerSchema>;

/** GET /_sandbox/trades/:id */
export const tradeDetailSchema = named(
  'TradeDetail',
  z.object({
    trade: adminTradeSchema,
    history: z.array(historyEntrySchema),
    /** Oldest first. */
    callbacks: z.array(callbackEventSchema),
    /** Steps scheduled for the trade (timeline moves, callback attempts), in the order they run. */
    pending: z.array(jobSchema),
  }),
);
export type TradeDetail = z.infer<typeof tradeDetailSchema>;

/** POST /_sandbox/trades/:id/transition */
export const transitionAnswerSchema = named('TransitionAnswer', z.object({ trade: adminTradeSchema }));

/** POST /_sandbox/reset */
export const resetAnswerSchema = named(
  'ResetAnswer',
  z.object({
    status: z.literal('reset'),
    removed: z.object({ trades: z.number().int(), callbacks: z.number().int(), jobs: z.number().int() }),
  }),
);
export type ResetAnswer = z.infer<typeof resetAnswerSchema>;

/** GET /_sandbox/callbacks (newest first) */
export const callbacksAnswerSchema = named('CallbacksAnswer', z.object({ callbacks: z.array(callbackEventSchema) }));

/** GET /_sandbox/callbacks/:id and POST /_sandbox/callbacks/:id/replay */
export const callbackAnswerSchema = named('CallbackAnswer', z.object({ callback: callbackEventSchema }));

/** GET /_sandbox/clock */
export const clockAnswerSchema = named(
  'ClockAnswer',
  z.object({
    mode: clockModeSchema,
    now: z.string(),
    /** Jobs not yet run. */
    pending: z.number().int(),
    next_due: z.string().nullable(),
  }),
);
export type ClockAnswer = z.infer<typeof clockAnswerSchema>;

/** POST /_sandbox/clock/advance */
export const advanceAnswerSchema = named(
  'AdvanceAnswer',
  z.object({
    now: z.string(),
    /** How many steps fell due and ran. */
    ran: z.number().int(),
  }),
);
export type AdvanceAnswer = z.infer<typeof advanceAnswerSchema>;

/** GET /_sandbox/scenarios (in match order) */
export const scenariosAnswerSchema = named('ScenariosAnswer', z.object({ scenarios: z.array(scenarioSummarySchema) }));

/**
 * GET /_sandbox/merchants: the merchants of this sandbox (workspace) and the `--auth` mode.
 * The fixtures' merchants come with their token and secret (they are in the fixtures file
 * anyway), so the dashboard's "New trade" form can call the provider API as the merchant
 * would; a merchant added to a workspace (POST /_sandbox/merchants) had its credentials
 * answered once, in the 201, and is listed without them.
 */
export const merchantsAnswerSchema = named(
  'MerchantsAnswer',
  z.object({
    auth: z.enum(AUTH_MODES),
    merchants: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        rate: z.number(),
        from: z.enum(['fixtures', 'workspace']),
        token: z.string().optional(),
        secret: z.string().optional(),
      }),
    ),
  }),
);
export type MerchantsAnswer = z.infer<typeof merchantsAnswerSchema>;

/** POST /_sandbox/merchants: the only answer that shows the new merchant's token and secret. */
export const addMerchantAnswerSchema = named('AddMerchantAnswer', z.object({ merchant: merchantSchema, workspace: z.string() }));
export type AddMerchantAnswer = z.infer<typeof addMerchantAnswerSchema>;

/** POST /_sandbox/merchants/:id/sign */
export const signAnswerSchema = named('SignAnswer', z.object({ signature: z.string(), algorithm: z.string(), merchant: z.string() }));

/** PUT and DELETE /_sandbox/scenarios */
export const scenarioUploadAnswerSchema = named('ScenarioUploadAnswer', z.object({ workspace: z.string(), added: z.array(z.string()).optional(), scenarios: z.array(scenarioSummarySchema) }));
export type ScenarioUploadAnswer = z.infer<typeof scenarioUploadAnswerSchema>;
