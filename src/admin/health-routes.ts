import { createRoute } from '@hono/zod-openapi';
import { hasAdminAccess } from '../http/admin-guard.js';
import { ResourceApp } from '../http/resource-app.js';
import { answer } from '../openapi/error-responses.js';
import { SECURITY } from '../openapi/security.js';
import { healthAnswerSchema } from './admin-answers.js';

const health = createRoute({
  method: 'get',
  path: '/',
  operationId: 'health',
  tags: ['sandbox'],
  summary: 'Health and a summary of the sandbox',
  description: 'Open to everyone. With --admin-token set, the details (trades, auth, clock, store) only come with the token.',
  security: SECURITY.open,
  responses: { 200: answer('The sandbox is up.', healthAnswerSchema) },
});

/** GET /_sandbox/health: open to all; the details only with the admin token (when one is set). */
export function healthRoutes() {
  return new ResourceApp().openapi(health, (c) => {
    const sandbox = c.get('sandbox');
    if (!hasAdminAccess(c, sandbox.options.adminToken)) return c.json({ status: 'ok' as const }, 200);
    return c.json(
      {
        status: 'ok' as const,
        trades: sandbox.store.trades.size,
        auth: sandbox.options.auth,
        clock: { mode: sandbox.clock.mode, now: sandbox.clock.nowIso() },
        store: sandbox.store.adapter.location,
        create_delays: sandbox.scenarios.delaysUnderWay().count,
        rss_mb: Math.round(process.memoryUsage.rss() / 1e5) / 10,
      },
      200,
    );
  });
}
