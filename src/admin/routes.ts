import { Hono } from 'hono';
import type { Sandbox } from '../sandbox.js';

/** The sandbox's own routes, mounted at /_sandbox. */
export function adminRoutes(sandbox: Sandbox) {
  const app = new Hono();

  app.get('/health', (c) =>
    c.json({
      status: 'ok',
      trades: sandbox.store.trades.size,
      auth: sandbox.options.auth,
      clock: { mode: sandbox.clock.mode, now: sandbox.clock.nowIso() },
      store: sandbox.store.adapter.location,
    }),
  );

  return app;
}
