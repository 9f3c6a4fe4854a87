import { tradeDetailSchema, tradesAnswerSchema, transitionAnswerSchema } from '../admin/admin-answers.js';
import { tradeQuerySchema } from '../admin/list-trades.js';
import { transitionSchema } from '../admin/trade-routes.js';
import { integrationReportSchema } from '../report/report-schema.js';
import { ADMIN_401, ADMIN_TOO_LARGE, error } from './error-responses.js';
import { WORKSPACE_OPERATIONS } from '../workspaces/workspace-operations.js';

export type { Operation, OperationAuth, OperationResponse } from './operation.js';
import type { Operation } from './operation.js';

const BODY_422 = 'The body is not valid: not JSON, not an object, or a field is wrong (`error.details` names each field).';

/** Every route /openapi.json documents: the provider's three endpoints and the admin API. */
export const OPERATIONS: readonly Operation[] = [
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
] satisfies Operation[];
