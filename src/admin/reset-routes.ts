import { createRoute } from '@hono/zod-openapi';
import { requireSandboxAdmin } from '../http/admin-guard.js';
import { ResourceApp } from '../http/resource-app.js';
import { ADMIN_401, answer } from '../openapi/error-responses.js';
import { SECURITY } from '../openapi/security.js';
import { resetAnswerSchema } from './admin-answers.js';
import { resetSandbox } from './reset-sandbox.js';

const reset = createRoute({
  method: 'post',
  path: '/',
  operationId: 'reset',
  tags: ['sandbox'],
  summary: 'Remove every trade, callback and pending step',
  description: 'The clock keeps its mode and time.',
  security: SECURITY.admin,
  responses: { 200: answer('What was removed.', resetAnswerSchema), 401: ADMIN_401 },
});

/** POST /_sandbox/reset: removes every trade, callback and pending job. */
export function resetRoutes() {
  const app = new ResourceApp();
  app.use(requireSandboxAdmin);
  return app.openapi(reset, async (c) => {
    const sandbox = c.get('sandbox');
    const result = resetSandbox(sandbox);
    await sandbox.store.commit();
    return c.json(result, 200);
  });
}
