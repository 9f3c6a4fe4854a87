import { Hono } from 'hono';
import type { SandboxEnv } from '../http/sandbox-env.js';
import { hasAdminAccess } from '../http/admin-guard.js';

/** GET /_sandbox/health: open to all; the details only with the admin token (when one is set). */
export function healthRoutes() {
  return new Hono<SandboxEnv>().get('/', (c) => {
    const sandbox = c.get('sandbox');
    if (!hasAdminAccess(c, sandbox.options.adminToken)) return c.json({ status: 'ok' });
    return c.json({
      status: 'ok',
      trades: sandbox.store.trades.size,
      auth: sandbox.options.auth,
      clock: { mode: sandbox.clock.mode, now: sandbox.clock.nowIso() },
      store: sandbox.store.adapter.location,
      create_delays: sandbox.scenarios.delaysUnderWay().count,
      rss_mb: Math.round(process.memoryUsage.rss() / 1e5) / 10,
    });
  });
}
