import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { requireSandboxAdmin } from '../http/admin-guard.js';
import { ADMIN_BODY_LIMIT } from '../http/body.js';
import { errors } from '../http/errors.js';
import { orRefuse } from '../http/refusal-error.js';
import { jsonRequest } from '../http/request-body.js';
import { ResourceApp } from '../http/resource-app.js';
import { ADMIN_401, ADMIN_TOO_LARGE, answer, BODY_422, error } from '../openapi/error-responses.js';
import { pathParams } from '../openapi/path-params.js';
import { named } from '../openapi/schema-name.js';
import { SECURITY } from '../openapi/security.js';
import type { Sandbox } from '../sandbox.js';
import { TRADE_STATES } from '../trades/trade.js';
import { tradeDetailSchema, tradesAnswerSchema, transitionAnswerSchema } from './admin-answers.js';
import { toAdminTrade } from './admin-trade.js';
import { listTrades, tradeQueryFor, tradeQuerySchema } from './list-trades.js';
import { validationError } from '../http/validation.js';
import type { Context } from 'hono';
import type { SandboxEnv } from '../http/sandbox-env.js';

export const transitionSchema = named(
  'TransitionRequest',
  z.object({
    state: z.string({ error: `must be one of ${TRADE_STATES.join(', ')}` }),
    note: z.string({ error: 'must be a string' }).max(500, 'must be at most 500 characters').optional(),
  }),
);

const list = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listTrades',
  tags: ['sandbox'],
  summary: 'List trades, newest first',
  security: SECURITY.admin,
  request: { query: tradeQuerySchema },
  responses: { 200: answer('One page of matching trades and the total.', tradesAnswerSchema), 401: ADMIN_401, 422: error('A filter is not valid.') },
});

const detail = createRoute({
  method: 'get',
  path: '/{id}',
  operationId: 'getTradeDetail',
  tags: ['sandbox'],
  summary: 'One trade with its history, callbacks and pending steps',
  security: SECURITY.admin,
  request: { params: pathParams({ id: 'The trade id.' }) },
  responses: { 200: answer('The trade and what happened to it.', tradeDetailSchema), 401: ADMIN_401, 404: error('No such trade.') },
});

const transition = createRoute({
  method: 'post',
  path: '/{id}/transition',
  operationId: 'transitionTrade',
  tags: ['sandbox'],
  summary: 'Move a trade to a state',
  description: 'Goes through the transition table; a callback follows when the trade has a callback_url.',
  security: SECURITY.admin,
  request: { params: pathParams({ id: 'The trade id.' }), body: jsonRequest(transitionSchema, ADMIN_BODY_LIMIT) },
  responses: {
    200: answer('The trade after the move.', transitionAnswerSchema),
    401: ADMIN_401,
    404: error('No such trade.'),
    409: error(
      'The move is not allowed from the current state (a final state allows none); `error.allowed` lists the states allowed now. Also the states no trade moves to, created and ecom, which the request schema leaves out.',
    ),
    413: ADMIN_TOO_LARGE,
    422: error(`${BODY_422} Also: a state that is not one of the trade states.`),
  },
});

/**
 * The query's problems under the sandbox's transition table, as its 422: the declared schema
 * takes any well-formed state name, the table knows which are states (its profile's).
 */
const refuseQuery = (c: Context<SandboxEnv>) => {
  const query = Object.fromEntries(Object.entries(c.req.queries()).map(([key, values]) => (values.length === 1 ? [key, values[0]] : [key, values])));
  const result = tradeQueryFor(c.get('sandbox').lifecycle.table()).safeParse(query);
  return result.success ? undefined : validationError(result.error);
};

/** The list's query hook: all the query's problems at once, the state's as the profile in force says it. */
const queryRefused = (result: { success: true } | { success: false; error: { issues: readonly z.core.$ZodIssue[] } }, c: Context<SandboxEnv>): undefined => {
  if (!result.success) throw refuseQuery(c) ?? validationError(result.error);
  return undefined;
};

const find = (sandbox: Sandbox, id: string) => {
  const trade = sandbox.store.trades.get(id) ?? sandbox.store.trades.get(id.toLowerCase());
  if (!trade) throw errors.notFound(`No trade with id ${JSON.stringify(id)}. List trades with GET ${sandbox.basePath}/_sandbox/trades.`);
  return trade;
};

/** /_sandbox/trades: list, one trade with its history and callbacks, and forced transitions. */
export function tradeRoutes() {
  const app = new ResourceApp();
  app.use(requireSandboxAdmin);
  return app
    .openapi(
      list,
      (c) => {
        const sandbox = c.get('sandbox');
        const query = c.req.valid('query');
        const table = sandbox.lifecycle.table();
        if (query.state !== undefined && !table.knows(query.state)) throw refuseQuery(c) ?? new Error(`the query schema of the table took an unknown state ${query.state}`);
        const { trades, total } = listTrades(sandbox.store, query);
        return c.json({ trades: trades.map((trade) => toAdminTrade(trade, sandbox.publicUrl, table)), total }, 200);
      },
      // `as never`: a hook that returns no answer would otherwise take part in the route's typed answers.
      queryRefused as never,
    )
    .openapi(detail, (c) => {
      const sandbox = c.get('sandbox');
      const trade = find(sandbox, c.req.param('id'));
      return c.json(
        {
          trade: toAdminTrade(trade, sandbox.publicUrl, sandbox.lifecycle.table()),
          history: trade.history,
          callbacks: sandbox.callbacks.forTrade(trade.id),
          pending: sandbox.scheduler.pending((job) => job.trade === trade.id),
        },
        200,
      );
    })
    .openapi(transition, async (c) => {
      const sandbox = c.get('sandbox');
      const { state, note } = c.req.valid('json');
      const trade = orRefuse(sandbox.lifecycle.transition(find(sandbox, c.req.param('id')).id, state, 'admin', note));
      await sandbox.store.commit();
      return c.json({ trade: toAdminTrade(trade, sandbox.publicUrl, sandbox.lifecycle.table()) }, 200);
    });
}
