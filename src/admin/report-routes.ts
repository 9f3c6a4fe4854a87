import { createRoute } from '@hono/zod-openapi';
import { requireSandboxAdmin } from '../http/admin-guard.js';
import { ResourceApp } from '../http/resource-app.js';
import { ADMIN_401, answer } from '../openapi/error-responses.js';
import { named } from '../openapi/schema-name.js';
import { SECURITY } from '../openapi/security.js';
import { integrationReportSchema } from '../report/report-schema.js';
import { creditsSettled, serverReport } from '../report/server-report.js';

named('IntegrationReport', integrationReportSchema, "The merchant's mistakes the sandbox counted, per merchant.");

const report = createRoute({
  method: 'get',
  path: '/',
  operationId: 'integrationReport',
  tags: ['sandbox'],
  summary: "The merchant's mistakes and integration coverage the sandbox counted (integration report)",
  description:
    "Per merchant: 401 answers by cause, 422 answers by field and code, duplicate orders, callbacks answered non-2xx, timed out or never acknowledged, forged copies accepted. Only merchants with a mistake are listed. notes holds advice that is not a mistake (more than 60 reads of one trade within a minute of real time). coverage lists, per known merchant, which situations its tests met and how they answered (not_seen, seen, handled, wrong). At the root, every workspace's entries too, each with its workspace name (deleted workspaces kept until exit). Counted since the sandbox started, in memory.",
  security: SECURITY.admin,
  responses: { 200: answer('The report.', integrationReportSchema), 401: ADMIN_401 },
});

/**
 * GET /_sandbox/report: the merchant's mistakes and coverage the sandbox counted (src/report), per
 * merchant; at the root, every workspace's too (/w/<name>/_sandbox/report: that workspace's).
 */
export function reportRoutes() {
  const app = new ResourceApp();
  app.use(requireSandboxAdmin);
  return app.openapi(report, async (c) => {
    const sandbox = c.get('sandbox');
    const server = c.get('server');
    // Of the workspace default, the whole server's.
    const others = sandbox === server.root ? server.workspaces : undefined;
    // With --probe: the credits of callbacks already acknowledged are read first (bounded).
    await creditsSettled(sandbox, others);
    return c.json(serverReport(sandbox, others), 200);
  });
}
