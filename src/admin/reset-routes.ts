import { Hono } from 'hono';
import type { SandboxEnv } from '../http/sandbox-env.js';
import { requireSandboxAdmin } from '../http/admin-guard.js';
import { resetSandbox } from './reset-sandbox.js';

/** POST /_sandbox/reset: removes every trade, callback and pending job. */
export function resetRoutes() {
  const app = new Hono<SandboxEnv>();
  app.use(requireSandboxAdmin);
  app.post('/', async (c) => {
    const sandbox = c.get('sandbox');
    const result = resetSandbox(sandbox);
    await sandbox.store.commit();
    return c.json(result);
  });
  return app;
}
