import { Hono } from 'hono';
import type { Sandbox } from '../sandbox.js';
import { requireAdminToken } from './admin-token.js';

/** GET /_sandbox/report: the merchant's mistakes the sandbox counted (src/report), per merchant. */
export function reportRoutes(sandbox: Sandbox) {
  const app = new Hono();
  app.use(requireAdminToken(sandbox.options.adminToken));
  app.get('/', (c) => c.json(sandbox.report.report((id) => sandbox.merchants.get(id)?.name)));
  return app;
}
