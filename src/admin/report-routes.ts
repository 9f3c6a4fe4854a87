import { Hono } from 'hono';
import type { SandboxEnv } from '../http/sandbox-env.js';
import { requireSandboxAdmin } from '../http/admin-guard.js';

/** GET /_sandbox/report: the merchant's mistakes the sandbox counted (src/report), per merchant. */
export function reportRoutes() {
  const app = new Hono<SandboxEnv>();
  app.use(requireSandboxAdmin);
  app.get('/', (c) => {
    const sandbox = c.get('sandbox');
    return c.json(sandbox.report.report((id) => sandbox.merchants.get(id)?.name));
  });
  return app;
}
