import {
  addMerchantAnswerSchema,
  callbackAnswerSchema,
  callbacksAnswerSchema,
  merchantsAnswerSchema,
  resetAnswerSchema,
  scenarioUploadAnswerSchema,
  scenariosAnswerSchema,
  signAnswerSchema,
  tradeDetailSchema,
  tradesAnswerSchema,
  transitionAnswerSchema,
} from '../admin/admin-answers.js';
import { checkCallbackRequestSchema } from '../admin/check-callback-routes.js';
import { tradeQuerySchema } from '../admin/list-trades.js';
import { signRequestSchema } from '../admin/merchant-routes.js';
import { transitionSchema } from '../admin/trade-routes.js';
import { callbackQuerySchema } from '../callbacks/list-callbacks.js';
import { checkReportSchema } from '../check-callback/check-report.js';
import { newMerchantSchema } from '../merchants/added-merchants.js';
import { integrationReportSchema } from '../report/report-schema.js';
import { SCENARIO_HEADER, scenarioFileSchema } from '../scenarios/scenario.js';
import { buildRequestSchema, createRequestSchema, LIMITS } from '../trades/requests.js';
import { ecomTradeSchema, p2pTradeSchema } from '../trades/trade.js';
import { ADMIN_401, ADMIN_TOO_LARGE, error, TOO_LARGE } from './error-responses.js';
import { WORKSPACE_OPERATIONS } from '../workspaces/workspace-operations.js';

export type { Operation, OperationAuth, OperationResponse } from './operation.js';
import type { Operation, OperationLink } from './operation.js';

const EVERY = 'Every /_sandbox route also works under /w/{name}/_sandbox for workspace {name}.';
const SCENARIO_PICK = `Picks a scenario by name (it wins over matching); see GET /_sandbox/scenarios.`;
const PROVIDER_401 = error(
  'Authentication failed: missing or wrong X-Auth / X-Token, unknown merchant, or a signature mismatch (then `error.signature` shows the string to sign the sandbox used). A scenario may force it too.',
);
const BODY_422 = 'The body is not valid: not JSON, not an object, or a field is wrong (`error.details` names each field).';

/** Where a created trade leads: reading it, moving it (admin), and the page its payer opens. */
const CREATED_LINKS: Record<string, OperationLink> = {
  GetTrade: {
    operationId: 'getTrade',
    parameters: { merchant: '$request.body#/merchant', uuid: '$response.body#/id' },
    description: 'Read the trade as the merchant that created it (X-Token).',
  },
  TransitionTrade: {
    operationId: 'transitionTrade',
    parameters: { id: '$response.body#/id' },
    description: 'Move the trade to a state (admin API).',
  },
  PaymentPage: {
    operationId: 'paymentPage',
    parameters: { id: '$response.body#/id' },
    description: "The trade's hosted payment page (payment_data.url).",
  },
};

function createOperation(endpoint: 'create' | 'build'): Operation {
  const p2p = endpoint === 'create';
  return {
    method: 'post',
    path: `/api/v1/trades/deposit/${endpoint}`,
    operationId: p2p ? 'createDeposit' : 'buildDeposit',
    tag: 'provider',
    summary: p2p ? 'Create a P2P deposit (any_bank or nspk)' : 'Create an ecom deposit',
    description: p2p
      ? 'The answer carries the requisites to pay to in payment_data (name, number, bank_name) and the hosted payment page url.'
      : 'The answer carries only the hosted payment page url in payment_data.',
    auth: 'x-auth',
    requestHeaders: { [SCENARIO_HEADER]: SCENARIO_PICK },
    body: p2p ? createRequestSchema : buildRequestSchema,
    responses: {
      201: {
        description: 'The trade was created.',
        schema: p2p ? p2pTradeSchema : ecomTradeSchema,
        headers: { [SCENARIO_HEADER]: 'The scenario that matched the trade, when one did.' },
        links: CREATED_LINKS,
      },
      401: PROVIDER_401,
      413: TOO_LARGE(LIMITS.maxBodyBytes),
      422: error(`${BODY_422} Also: a second trade with the same order for the merchant (duplicate_order), or a scenario's forced 422.`),
    },
  };
}

/** Every route /openapi.json documents: the provider's three endpoints and the admin API. */
export const OPERATIONS: readonly Operation[] = [
  createOperation('create'),
  createOperation('build'),
  {
    method: 'get',
    path: '/api/v1/trades/{merchant}/{uuid}',
    operationId: 'getTrade',
    tag: 'provider',
    summary: 'Read a trade',
    auth: 'x-token',
    pathParams: { merchant: 'The merchant id (UUID).', uuid: 'The trade id returned by create or build.' },
    uuidParams: ['merchant', 'uuid'],
    responses: {
      200: { description: 'The trade as it is now; payment_data has all four fields, for ecom trades too.', schema: p2pTradeSchema },
      401: PROVIDER_401,
      404: error("The merchant has no such trade (another merchant's trade is reported the same way)."),
    },
  },
  {
    method: 'get',
    path: '/_sandbox/trades',
    operationId: 'listTrades',
    tag: 'sandbox',
    summary: 'List trades, newest first',
    auth: 'admin',
    query: tradeQuerySchema,
    queryAllowsEmpty: true,
    responses: { 200: { description: 'One page of matching trades and the total.', schema: tradesAnswerSchema }, 401: ADMIN_401, 422: error('A filter is not valid.') },
  },
  {
    method: 'get',
    path: '/_sandbox/trades/{id}',
    operationId: 'getTradeDetail',
    tag: 'sandbox',
    summary: 'One trade with its history, callbacks and pending steps',
    auth: 'admin',
    pathParams: { id: 'The trade id.' },
    responses: { 200: { description: 'The trade and what happened to it.', schema: tradeDetailSchema }, 401: ADMIN_401, 404: error('No such trade.') },
  },
  {
    method: 'post',
    path: '/_sandbox/trades/{id}/transition',
    operationId: 'transitionTrade',
    tag: 'sandbox',
    summary: 'Move a trade to a state',
    description: 'Goes through the transition table; a callback follows when the trade has a callback_url.',
    auth: 'admin',
    pathParams: { id: 'The trade id.' },
    body: transitionSchema,
    responses: {
      200: { description: 'The trade after the move.', schema: transitionAnswerSchema },
      401: ADMIN_401,
      404: error('No such trade.'),
      409: error(
        'The move is not allowed from the current state (a final state allows none); `error.allowed` lists the states allowed now. Also the states no trade moves to, created and ecom, which the request schema leaves out.',
      ),
      413: ADMIN_TOO_LARGE,
      422: error(`${BODY_422} Also: a state that is not one of the trade states.`),
    },
  },
  {
    method: 'post',
    path: '/_sandbox/reset',
    operationId: 'reset',
    tag: 'sandbox',
    summary: 'Remove every trade, callback and pending step',
    description: 'The clock keeps its mode and time.',
    auth: 'admin',
    responses: { 200: { description: 'What was removed.', schema: resetAnswerSchema }, 401: ADMIN_401 },
  },
  {
    method: 'get',
    path: '/_sandbox/callbacks',
    operationId: 'listCallbacks',
    tag: 'sandbox',
    summary: 'List callback events, newest first',
    auth: 'admin',
    query: callbackQuerySchema,
    queryAllowsEmpty: true,
    responses: { 200: { description: 'Matching callback events with every attempt.', schema: callbacksAnswerSchema }, 401: ADMIN_401, 422: error('A filter is not valid.') },
  },
  {
    method: 'get',
    path: '/_sandbox/callbacks/{id}',
    operationId: 'getCallback',
    tag: 'sandbox',
    summary: 'One callback event with every attempt',
    auth: 'admin',
    pathParams: { id: 'The callback event id (X-Sandbox-Event-Id).' },
    responses: { 200: { description: 'The event.', schema: callbackAnswerSchema }, 401: ADMIN_401, 404: error('No such callback event.') },
  },
  {
    method: 'post',
    path: '/_sandbox/callbacks/{id}/replay',
    operationId: 'replayCallback',
    tag: 'sandbox',
    summary: 'Send a callback again, now, as a new event',
    auth: 'admin',
    pathParams: { id: 'The callback event id to replay.' },
    responses: { 202: { description: 'The new event (replay_of = id); it is being sent.', schema: callbackAnswerSchema }, 401: ADMIN_401, 404: error('No such callback event.') },
  },
  {
    method: 'get',
    path: '/_sandbox/scenarios',
    operationId: 'listScenarios',
    tag: 'sandbox',
    summary: 'The loaded scenarios, in match order',
    auth: 'admin',
    responses: { 200: { description: 'Every scenario with its trigger (magic value) and effect.', schema: scenariosAnswerSchema }, 401: ADMIN_401 },
  },
  {
    method: 'put',
    path: '/_sandbox/scenarios',
    operationId: 'setWorkspaceScenarios',
    tag: 'sandbox',
    summary: "Set this workspace's own scenarios (a YAML body, the format of a scenario file)",
    description: `They are matched before the shared ones, replace the ones sent before, and are checked with the messages of scenario files. ${EVERY}`,
    auth: 'admin',
    yaml: scenarioFileSchema,
    responses: {
      200: { description: 'The scenarios now loaded, in match order.', schema: scenarioUploadAnswerSchema },
      401: ADMIN_401,
      413: ADMIN_TOO_LARGE,
      422: error('The YAML is not a valid scenario file (each problem with its line and field), or not UTF-8.'),
    },
  },
  {
    method: 'delete',
    path: '/_sandbox/scenarios',
    operationId: 'clearWorkspaceScenarios',
    tag: 'sandbox',
    summary: "Remove this workspace's own scenarios",
    auth: 'admin',
    responses: { 200: { description: 'The scenarios now loaded.', schema: scenarioUploadAnswerSchema }, 401: ADMIN_401 },
  },
  {
    method: 'get',
    path: '/_sandbox/merchants',
    operationId: 'listMerchants',
    tag: 'sandbox',
    summary: "The merchants: the fixtures' (with their token and secret) and the workspace's own (without)",
    description: `Ids, names, rates and where each merchant comes from, and the --auth mode. The fixtures' merchants come with their token and secret, which the dashboard's New trade form uses to call the provider API as the merchant; a merchant added to a workspace had them answered once, in the 201 of POST /_sandbox/merchants. ${EVERY}`,
    auth: 'admin',
    responses: { 200: { description: 'The merchants and the auth mode.', schema: merchantsAnswerSchema }, 401: ADMIN_401 },
  },
  {
    method: 'post',
    path: '/_sandbox/merchants',
    operationId: 'addMerchant',
    tag: 'sandbox',
    summary: 'Add a merchant to this workspace only',
    description: `Fields left out are generated; the token and secret are answered here only. ${EVERY}`,
    auth: 'admin',
    body: newMerchantSchema,
    anyContentType: true,
    responses: {
      201: { description: 'The new merchant with its token and secret.', schema: addMerchantAnswerSchema },
      401: ADMIN_401,
      409: error('The id is taken.'),
      413: ADMIN_TOO_LARGE,
      422: error('A field is not valid.'),
    },
  },
  {
    method: 'post',
    path: '/_sandbox/check-callback',
    operationId: 'checkCallbackReceiver',
    tag: 'sandbox',
    summary: 'Check a callback receiver',
    description:
      "Sends the receiver a valid callback, the same one again, an older state after a newer one, one with a wrong signature and one without, signed with the merchant's secret from the fixtures, and answers a verdict per case. Nothing is stored. Takes as long as the receiver does (each case is bounded by the callback timeout).",
    auth: 'admin',
    body: checkCallbackRequestSchema,
    responses: {
      200: { description: 'The report (passed is false when a case is flagged).', schema: checkReportSchema },
      401: ADMIN_401,
      413: ADMIN_TOO_LARGE,
      422: error(`${BODY_422} Also: a merchant that is not in the fixtures.`),
    },
  },
  {
    method: 'get',
    path: '/_sandbox/report',
    operationId: 'integrationReport',
    tag: 'sandbox',
    summary: "The merchant's mistakes and integration coverage the sandbox counted (integration report)",
    description: `Per merchant: 401 answers by cause, 422 answers by field and code, duplicate orders, callbacks answered non-2xx, timed out or never acknowledged, forged copies accepted. Only merchants with a mistake are listed. notes holds advice that is not a mistake (more than 60 reads of one trade within a minute of real time). coverage lists, per known merchant, which situations its tests met and how they answered (not_seen, seen, handled, wrong). At the root, every workspace's entries too, each with its workspace name (deleted workspaces kept until exit). Counted since the sandbox started, in memory.`,
    auth: 'admin',
    responses: { 200: { description: 'The report.', schema: integrationReportSchema }, 401: ADMIN_401 },
  },
  ...WORKSPACE_OPERATIONS,
  // After the workspaces' row: /openapi.json lists the paths in the order they first appear here.
  {
    method: 'post',
    path: '/_sandbox/merchants/{id}/sign',
    operationId: 'signAsMerchant',
    tag: 'sandbox',
    summary: "Sign a string with a merchant's secret (without showing it)",
    auth: 'admin',
    pathParams: { id: 'The merchant id.' },
    body: signRequestSchema,
    anyContentType: true,
    responses: {
      200: { description: 'The hex HMAC-SHA256.', schema: signAnswerSchema },
      401: ADMIN_401,
      404: error('No such merchant in this workspace.'),
      413: ADMIN_TOO_LARGE,
      422: error('The body is not a JSON object holding string_to_sign.'),
    },
  },
] satisfies Operation[];
