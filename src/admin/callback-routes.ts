import { Hono } from 'hono';
import { validate } from '../http/validation.js';
import { callbackQuerySchema, listCallbacks } from '../callbacks/list-callbacks.js';
import { errors } from '../http/errors.js';
import type { SandboxEnv } from '../http/sandbox-env.js';
import { requireSandboxAdmin } from '../http/admin-guard.js';

/** /_sandbox/callbacks: the callback log and replays. */
export function callbackRoutes() {
  const app = new Hono<SandboxEnv>();
  app.use(requireSandboxAdmin);

  app.get('/', validate('query', callbackQuerySchema), (c) => {
    const sandbox = c.get('sandbox');
    return c.json({ callbacks: listCallbacks(sandbox.store, c.req.valid('query')) });
  });

  app.get('/:id', (c) => {
    const sandbox = c.get('sandbox');
    const id = c.req.param('id');
    const callback = sandbox.callbacks.get(id);
    if (!callback) throw errors.notFound(`No callback event ${JSON.stringify(id)}. List events with GET ${sandbox.basePath}/_sandbox/callbacks.`);
    return c.json({ callback });
  });

  app.post('/:id/replay', async (c) => {
    const sandbox = c.get('sandbox');
    const id = c.req.param('id');
    const callback = sandbox.callbacks.replay(id);
    if (!callback) throw errors.notFound(`No callback event ${JSON.stringify(id)}. List events with GET ${sandbox.basePath}/_sandbox/callbacks.`);
    await sandbox.store.commit();
    return c.json({ callback }, 202);
  });

  return app;
}
