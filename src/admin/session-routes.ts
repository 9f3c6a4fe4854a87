import { createRoute } from '@hono/zod-openapi';
import { requireSandboxAdmin } from '../http/admin-guard.js';
import { ResourceApp } from '../http/resource-app.js';
import { ADMIN_401, EVERY_WORKSPACE } from '../openapi/error-responses.js';
import { named } from '../openapi/schema-name.js';
import { SECURITY } from '../openapi/security.js';
import { CREATOR, sessionHar, sessionHarSchema } from '../sessions/session-har.js';

named('SessionHar', sessionHarSchema, 'HAR 1.2 of a recorded session, with _sandbox fields (docs/sessions.md).');

const exportHar = createRoute({
  method: 'get',
  path: '/',
  operationId: 'exportSession',
  tags: ['sandbox'],
  summary: "This workspace's recorded session as HAR 1.2 (requests, answers and callbacks, credentials masked)",
  description: `Opens in a browser's network panel; \`deposit-sandbox session replay\` replays it. Answered as a download (Content-Disposition: attachment). ${EVERY_WORKSPACE}`,
  security: SECURITY.admin,
  responses: {
    200: {
      description: 'The session.',
      headers: { 'Content-Disposition': { description: 'attachment; filename="<workspace>.har"', schema: { type: 'string' as const } } },
      content: { 'application/json': { schema: sessionHarSchema } },
    },
    401: ADMIN_401,
  },
});

/** GET /_sandbox/session.har: the workspace's recorded session (src/sessions/session-har.ts). */
export function sessionRoutes() {
  const app = new ResourceApp();
  app.use(requireSandboxAdmin);
  return app.openapi(exportHar, async (c) => {
    const sandbox = c.get('sandbox');
    const har = await sessionHar(sandbox, CREATOR);
    c.header('Content-Disposition', `attachment; filename="${sandbox.workspace}.har"`);
    return c.json(har, 200);
  });
}
