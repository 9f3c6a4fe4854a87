import { Hono } from 'hono';
import type { Sandbox } from '../sandbox.js';
import { requireAdminToken } from './admin-token.js';
import { resetSandbox } from './reset-sandbox.js';

/** POST /_sandbox/reset: removes every trade, callback and pending job. */
export function resetRoutes(sandbox: Sandbox) {
  const app = new Hono();
  app.use(requireAdminToken(sandbox.options.adminToken));
  app.post('/', async (c) => {
    const result = resetSandbox(sandbox);
    await sandbox.store.commit();
    return c.json(result);
  });
  return app;
}
