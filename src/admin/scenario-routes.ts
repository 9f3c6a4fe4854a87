import { Hono } from 'hono';
import type { SandboxEnv } from '../http/sandbox-env.js';
import { requireSandboxAdmin } from '../http/admin-guard.js';

/** GET /_sandbox/scenarios: the loaded scenarios, in match order. */
export function scenarioRoutes() {
  const app = new Hono<SandboxEnv>();
  app.use(requireSandboxAdmin);
  app.get('/', (c) => {
    const sandbox = c.get('sandbox');
    return c.json({ scenarios: sandbox.scenarios.list() });
  });
  return app;
}
