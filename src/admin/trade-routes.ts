import { Hono } from 'hono';
import { z } from 'zod';
import { ADMIN_BODY_LIMIT, jsonBody } from '../http/body.js';
import { orRefuse } from '../http/refusal-error.js';
import { validate } from '../http/validation.js';
import { errors } from '../http/errors.js';
import type { Sandbox } from '../sandbox.js';
import type { SandboxEnv } from '../http/sandbox-env.js';
import { requireSandboxAdmin } from '../http/admin-guard.js';
import { TRADE_STATES } from '../trades/trade.js';
import { toAdminTrade } from './admin-trade.js';
import { listTrades, tradeQuerySchema } from './list-trades.js';

export const transitionSchema = z.object({
  state: z.string({ error: `must be one of ${TRADE_STATES.join(', ')}` }),
  note: z.string({ error: 'must be a string' }).max(500, 'must be at most 500 characters').optional(),
});

/** /_sandbox/trades: list, one trade with its history and callbacks, and forced transitions. */
export function tradeRoutes() {
  const app = new Hono<SandboxEnv>();
  app.use(requireSandboxAdmin);

  const find = (sandbox: Sandbox, id: string) => {
    const trade = sandbox.store.trades.get(id) ?? sandbox.store.trades.get(id.toLowerCase());
    if (!trade) throw errors.notFound(`No trade with id ${JSON.stringify(id)}. List trades with GET ${sandbox.basePath}/_sandbox/trades.`);
    return trade;
  };

  app.get('/', validate('query', tradeQuerySchema), (c) => {
    const sandbox = c.get('sandbox');
    const { trades, total } = listTrades(sandbox.store, c.req.valid('query'));
    return c.json({ trades: trades.map((trade) => toAdminTrade(trade, sandbox.publicUrl)), total });
  });

  app.get('/:id', (c) => {
    const sandbox = c.get('sandbox');
    const trade = find(sandbox, c.req.param('id'));
    return c.json({
      trade: toAdminTrade(trade, sandbox.publicUrl),
      history: trade.history,
      callbacks: sandbox.callbacks.forTrade(trade.id),
      pending: sandbox.scheduler.pending((job) => job.trade === trade.id),
    });
  });

  app.post('/:id/transition', jsonBody(ADMIN_BODY_LIMIT), validate('json', transitionSchema), async (c) => {
    const sandbox = c.get('sandbox');
    const { state, note } = c.req.valid('json');
    const trade = orRefuse(sandbox.lifecycle.transition(find(sandbox, c.req.param('id')).id, state, 'admin', note));
    await sandbox.store.commit();
    return c.json({ trade: toAdminTrade(trade, sandbox.publicUrl) });
  });

  return app;
}
