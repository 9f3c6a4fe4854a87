import { createRoute } from '@hono/zod-openapi';
import { callbackQuerySchema, listCallbacks } from '../callbacks/list-callbacks.js';
import { requireSandboxAdmin } from '../http/admin-guard.js';
import { errors } from '../http/errors.js';
import { ResourceApp } from '../http/resource-app.js';
import { ADMIN_401, answer, error } from '../openapi/error-responses.js';
import { pathParams } from '../openapi/path-params.js';
import { SECURITY } from '../openapi/security.js';
import { callbackAnswerSchema, callbacksAnswerSchema } from './admin-answers.js';

const list = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listCallbacks',
  tags: ['sandbox'],
  summary: 'List callback events, newest first',
  security: SECURITY.admin,
  request: { query: callbackQuerySchema },
  responses: { 200: answer('Matching callback events with every attempt.', callbacksAnswerSchema), 401: ADMIN_401, 422: error('A filter is not valid.') },
});

const one = createRoute({
  method: 'get',
  path: '/{id}',
  operationId: 'getCallback',
  tags: ['sandbox'],
  summary: 'One callback event with every attempt',
  security: SECURITY.admin,
  request: { params: pathParams({ id: 'The callback event id (X-Sandbox-Event-Id).' }) },
  responses: { 200: answer('The event.', callbackAnswerSchema), 401: ADMIN_401, 404: error('No such callback event.') },
});

const replay = createRoute({
  method: 'post',
  path: '/{id}/replay',
  operationId: 'replayCallback',
  tags: ['sandbox'],
  summary: 'Send a callback again, now, as a new event',
  security: SECURITY.admin,
  request: { params: pathParams({ id: 'The callback event id to replay.' }) },
  responses: { 202: answer('The new event (replay_of = id); it is being sent.', callbackAnswerSchema), 401: ADMIN_401, 404: error('No such callback event.') },
});

const noEvent = (basePath: string, id: string) => errors.notFound(`No callback event ${JSON.stringify(id)}. List events with GET ${basePath}/_sandbox/callbacks.`);

/** /_sandbox/callbacks: the callback log and replays. */
export function callbackRoutes() {
  const app = new ResourceApp();
  app.use(requireSandboxAdmin);
  return app
    .openapi(list, (c) => {
      const sandbox = c.get('sandbox');
      return c.json({ callbacks: listCallbacks(sandbox.store, c.req.valid('query')) }, 200);
    })
    .openapi(one, (c) => {
      const sandbox = c.get('sandbox');
      const id = c.req.param('id');
      const callback = sandbox.callbacks.get(id);
      if (!callback) throw noEvent(sandbox.basePath, id);
      return c.json({ callback }, 200);
    })
    .openapi(replay, async (c) => {
      const sandbox = c.get('sandbox');
      const id = c.req.param('id');
      const callback = sandbox.callbacks.replay(id);
      if (!callback) throw noEvent(sandbox.basePath, id);
      await sandbox.store.commit();
      return c.json({ callback }, 202);
    });
}
