import { createRoute, z } from '@hono/zod-openapi';
import { requireSandboxAdmin } from '../http/admin-guard.js';
import { ResourceApp } from '../http/resource-app.js';
import { ADMIN_401, error } from '../openapi/error-responses.js';
import { named } from '../openapi/schema-name.js';
import { SECURITY } from '../openapi/security.js';
import { integrationReportSchema } from '../report/report-schema.js';
import { FAIL_ON } from '../report/coverage-formats.js';
import { reportJunit, reportMarkdown } from '../report/report-formats.js';
import { settledReport } from './settled-report.js';

named('IntegrationReport', integrationReportSchema, "The merchant's mistakes the sandbox counted, per merchant.");

const report = createRoute({
  method: 'get',
  path: '/',
  operationId: 'integrationReport',
  tags: ['sandbox'],
  summary: "The merchant's mistakes and integration coverage the sandbox counted (integration report)",
  description:
    "Per merchant: 401 answers by cause, 422 answers by field and code, duplicate orders, callbacks answered non-2xx, timed out or never acknowledged, forged copies accepted. Only merchants with a mistake are listed. notes holds advice that is not a mistake (more than 60 reads of one trade within a minute of real time). coverage lists, per known merchant, which situations its tests met and how they answered (not_seen, seen, handled, wrong). At the root, every workspace's entries too, each with its workspace name (deleted workspaces kept until exit). Kept in the workspace's store: a durable sandbox (--data) reports the same after a restart; a reset keeps the counts.",
  security: SECURITY.admin,
  request: {
    query: z.object({
      format: z
        .enum(['json', 'junit', 'markdown'], { error: 'must be json, junit or markdown' })
        .optional()
        .meta({ description: 'json (the default), junit (JUnit XML, as `deposit-sandbox report --format junit` writes it) or markdown: a CI step can fetch it with curl while the sandbox runs.' }),
      fail_on: z
        .enum(FAIL_ON, { error: `must be ${FAIL_ON.join(' or ')}` })
        .optional()
        .meta({ description: 'With format=junit: coverage rows that are wrong (wrong), or not handled yet (not-handled), are failed test cases.' }),
    }),
  },
  responses: {
    200: {
      description: 'The report.',
      content: {
        'application/json': { schema: integrationReportSchema },
        'application/xml': { schema: { type: 'string' } },
        'text/markdown': { schema: { type: 'string' } },
      },
    },
    401: ADMIN_401,
    422: error('A query parameter is not one the route takes (format: json, junit or markdown; fail_on: wrong or not-handled).'),
  },
});

const clear = createRoute({
  method: 'delete',
  path: '/',
  operationId: 'clearIntegrationReport',
  tags: ['sandbox'],
  summary: "Forgets this workspace's integration report: its counted mistakes and coverage",
  description:
    "For a fresh start of the report after a fix, without removing trades (reset keeps the counts) or starting a new workspace. Only this workspace's counts: at the root, the other workspaces keep theirs. A durable sandbox (--data) writes the empty report to its store.",
  security: SECURITY.admin,
  responses: {
    200: {
      description: 'How many merchants had counts.',
      content: { 'application/json': { schema: named('ReportCleared', z.object({ status: z.literal('cleared'), merchants: z.number().int() })) } },
    },
    401: ADMIN_401,
  },
});

/**
 * GET /_sandbox/report: the merchant's mistakes and coverage the sandbox counted (src/report), per
 * merchant; at the root, every workspace's too (/w/<name>/_sandbox/report: that workspace's).
 * `?format=junit` or `markdown` answers it as the CLI's `report --format` writes it, for a CI step
 * that fetches it while the sandbox (a service container) still runs. DELETE forgets the
 * workspace's counts, which a durable sandbox otherwise keeps across restarts and resets.
 */
export function reportRoutes() {
  const app = new ResourceApp();
  app.use(requireSandboxAdmin);
  return app
    .openapi(report, async (c) => {
      const { format, fail_on: failOn } = c.req.valid('query');
      const counted = await settledReport(c.get('sandbox'), c.get('server'));
      // JUnit and Markdown are text, not the declared JSON: the declaration lists their media types.
      if (format === 'junit') return c.body(reportJunit(counted, failOn), 200, { 'Content-Type': 'application/xml; charset=UTF-8' }) as never;
      if (format === 'markdown') return c.body(reportMarkdown(counted), 200, { 'Content-Type': 'text/markdown; charset=UTF-8' }) as never;
      return c.json(counted, 200);
    })
    .openapi(clear, (c) => c.json({ status: 'cleared' as const, merchants: c.get('sandbox').report.clear() }, 200));
}
