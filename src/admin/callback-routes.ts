import { Hono } from 'hono';
import { validate } from '../api/validation.js';
import { callbackQuerySchema, listCallbacks } from '../callbacks/list-callbacks.js';
import { errors } from '../errors.js';
import type { Sandbox } from '../sandbox.js';
import { requireAdminToken } from './admin-token.js';

/** /_sandbox/callbacks: the callback log and replays. */
export function callbackRoutes(sandbox: Sandbox) {
  const app = new Hono();
  app.use(requireAdminToken(sandbox.options.adminToken));

  app.get('/', validate('query', callbackQuerySchema), (c) => c.json({ callbacks: listCallbacks(sandbox.store, c.req.valid('query')) }));

  app.get('/:id', (c) => {
    const id = c.req.param('id');
    const callback = sandbox.callbacks.get(id);
    if (!callback) throw errors.notFound(`No callback event ${JSON.stringify(id)}. List events with GET /_sandbox/callbacks.`);
    return c.json({ callback });
  });

  app.post('/:id/replay', async (c) => {
    const id = c.req.param('id');
    const callback = sandbox.callbacks.replay(id);
    if (!callback) throw errors.notFound(`No callback event ${JSON.stringify(id)}. List events with GET /_sandbox/callbacks.`);
    await sandbox.store.commit();
    return c.json({ callback }, 202);
  });

  return app;
}
