import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { requireSandboxAdmin } from '../http/admin-guard.js';
import { SandboxError } from '../http/errors.js';
import { jsonRequest } from '../http/request-body.js';
import { ResourceApp } from '../http/resource-app.js';
import { ADMIN_401, answer, error, EVERY_WORKSPACE, TOO_LARGE } from '../openapi/error-responses.js';
import { named } from '../openapi/schema-name.js';
import { SECURITY } from '../openapi/security.js';
import { applyImport, planImport } from '../sessions/import-state.js';
import { exportState, STATE_BODY_LIMIT, stateDocumentSchema } from '../sessions/state-document.js';

named('StateDocument', stateDocumentSchema, 'One workspace: its trades, callback log, pending steps, clock, own merchants, own scenarios and profile (docs/sessions.md).');

/** What becomes of the callbacks a document or a fork holds pending. */
export const pendingCallbacksSchema = z
  .enum(['paused', 'kept'], { error: 'must be "paused" (held until POST /_sandbox/resume-callbacks) or "kept" (sent as they fall due)' })
  .meta({ description: 'paused (the default): pending callbacks are held until POST /_sandbox/resume-callbacks; kept: they are sent as they fall due.' });

export const importSummarySchema = z.object({
  trades: z.number().int(),
  callbacks: z.number().int(),
  jobs: z.number().int(),
  merchants: z.number().int(),
  held_callbacks: z.number().int().meta({ description: 'Callback events held until POST /_sandbox/resume-callbacks.' }),
  clock: z.string().meta({ description: 'Sandbox time now: the time of the document.' }),
});

export const stateImportAnswerSchema = named(
  'StateImportAnswer',
  z.object({ status: z.literal('imported'), workspace: z.string(), callbacks: z.enum(['paused', 'kept']), imported: importSummarySchema }),
);

const read = createRoute({
  method: 'get',
  path: '/',
  operationId: 'exportState',
  tags: ['sandbox'],
  summary: 'This workspace as one JSON document (trades, callbacks, pending steps, clock, merchants, scenarios, profile)',
  description: `PUT it back, here or in another workspace or sandbox, to start from the same state. It holds the workspace's own merchants with their secrets: keep it as you keep them. ${EVERY_WORKSPACE}`,
  security: SECURITY.admin,
  responses: { 200: answer('The state document.', stateDocumentSchema), 401: ADMIN_401 },
});

const write = createRoute({
  method: 'put',
  path: '/',
  operationId: 'importState',
  tags: ['sandbox'],
  summary: 'Replace everything this workspace holds with a state document',
  description: `All or nothing: the document is checked whole first, and a document that is not valid (or from a newer version) changes nothing. The clock is set to the document's time. ${EVERY_WORKSPACE}`,
  security: SECURITY.admin,
  request: {
    query: z.object({ callbacks: pendingCallbacksSchema.optional() }),
    body: jsonRequest(stateDocumentSchema, STATE_BODY_LIMIT),
  },
  responses: {
    200: answer('What the workspace holds now.', stateImportAnswerSchema),
    401: ADMIN_401,
    413: TOO_LARGE(STATE_BODY_LIMIT, 'state document'),
    422: error(
      'Not a state document this version reads: a field is wrong, the version is newer, rows repeat an id or refer to rows the document lacks, or its scenarios or profile do not load (`error.details` names each); nothing changed.',
    ),
  },
});

/**
 * /_sandbox/state: GET exports the workspace as a state document (src/sessions/state-document.ts),
 * PUT imports one in its place, all or nothing (src/sessions/import-state.ts).
 */
export function stateRoutes() {
  const app = new ResourceApp();
  app.use(requireSandboxAdmin);
  return app
    .openapi(read, (c) => c.json(exportState(c.get('sandbox')), 200))
    .openapi(write, async (c) => {
      const sandbox = c.get('sandbox');
      const callbacks = c.req.valid('query').callbacks ?? 'paused';
      const planned = planImport(sandbox, c.req.valid('json'), { callbacks });
      if (!planned.ok) {
        const [first] = planned.problems;
        const message = `The state document was not imported (${planned.problems.length} ${planned.problems.length === 1 ? 'problem' : 'problems'}; nothing changed). The first: ${first?.field}: ${first?.message}`;
        throw new SandboxError(422, 'invalid_state', message, { details: planned.problems });
      }
      const imported = await applyImport(sandbox, planned.plan);
      return c.json({ status: 'imported' as const, workspace: sandbox.workspace, callbacks, imported }, 200);
    });
}
