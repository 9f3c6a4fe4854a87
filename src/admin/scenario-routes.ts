import { Hono } from 'hono';
import type { Sandbox } from '../sandbox.js';
import { requireAdminToken } from './admin-token.js';

/** GET /_sandbox/scenarios: the loaded scenarios, in match order. */
export function scenarioRoutes(sandbox: Sandbox) {
  const app = new Hono();
  app.use(requireAdminToken(sandbox.options.adminToken));
  app.get('/', (c) => c.json({ scenarios: sandbox.scenarios.list() }));
  return app;
}
