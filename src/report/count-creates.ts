import type { MiddlewareHandler } from 'hono';
import { JSON_BODY } from '../http/body.js';
import { ANSWER_LOST } from '../http/lose-answer.js';
import type { SandboxEnv } from '../http/sandbox-env.js';
// Up into report/ on purpose: the counting is report's logic, HTTP-free; this hook is its HTTP side.
import { CLIENT_HEADER, DASHBOARD_CLIENT } from './dashboard-client.js';
import { isLostAnswer } from './lost-answers.js';

/**
 * Middleware for POST /api/v1/trades/deposit/create and /build: after the route answered 201,
 * tells the request's sandbox's counter (integration coverage: create.accepted,
 * create.lost_answer). A create of the dashboard's own New trade form is remembered as QA's
 * instead, and counts for nothing. The common case costs a status check, one header read and
 * one map lookup; the trade is looked up only for a lost-answer scenario or the dashboard. The
 * scenario that took the create comes from the route (request variable `scenario`), not from
 * the answer: a lost answer has no headers, and reading an answer's headers back costs
 * @hono/node-server building a Headers object for every create.
 */
export const countCreates: MiddlewareHandler<SandboxEnv> = async (c, next) => {
  await next();
  // A 201, or a create saved whose answer the lost-answer scenario dropped on purpose.
  if (c.res.status !== 201 && c.get(ANSWER_LOST as never) !== true) return;
  const body = c.get(JSON_BODY) as Record<string, unknown> | undefined;
  const merchant = body?.['merchant'];
  const order = body?.['order'];
  if (typeof merchant !== 'string' || typeof order !== 'string') return;
  const sandbox = c.get('sandbox');
  if (c.req.header(CLIENT_HEADER) === DASHBOARD_CLIENT) {
    const id = sandbox.store.trades.findUnique(merchant.toLowerCase(), order)?.id;
    if (id !== undefined) sandbox.report.qaTrade(id);
    return;
  }
  const scenario = c.get('scenario');
  // The details only when a lost answer is concerned (rare): the common case stops here.
  if (!sandbox.report.created(merchant, order, scenario)) return;
  sandbox.report.createdDetails(merchant, {
    order,
    amount: body?.['amount_cents'],
    customer: body?.['customer'] ?? body?.['cusotmer'],
    scenario,
    at: sandbox.clock.now(),
    trade: isLostAnswer(order, scenario) ? sandbox.store.trades.findUnique(merchant.toLowerCase(), order)?.id : undefined,
  });
};
