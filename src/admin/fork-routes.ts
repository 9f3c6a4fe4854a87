import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { requireSandboxAdmin } from '../http/admin-guard.js';
import { ADMIN_BODY_LIMIT } from '../http/body.js';
import { SandboxError } from '../http/errors.js';
import { jsonRequest } from '../http/request-body.js';
import { ResourceApp } from '../http/resource-app.js';
import { ADMIN_401, ADMIN_TOO_LARGE, answer, BODY_422, error, EVERY_WORKSPACE } from '../openapi/error-responses.js';
import { named } from '../openapi/schema-name.js';
import { SECURITY } from '../openapi/security.js';
import { applyImport, type ImportSummary, planImport } from '../sessions/import-state.js';
import { exportState } from '../sessions/state-document.js';
import { workspaceNameProblem } from '../workspaces/workspace-name.js';
import { importSummarySchema, pendingCallbacksSchema } from './state-routes.js';

export const forkRequestSchema = named(
  'ForkRequest',
  z.object(
    {
      to: z.string({ error: 'must be the name of the new workspace, such as "test-7"' }).refine((name) => workspaceNameProblem(name) === undefined, {
        error: 'must be 1 to 64 of A-Z a-z 0-9 _ . - (not . or ..), the name of the new workspace',
      }),
      callbacks: pendingCallbacksSchema.optional(),
    },
    { error: 'must be a JSON object such as {"to": "test-7"}' },
  ),
  'to: the new workspace. callbacks: paused (the default) or kept.',
);

export const forkAnswerSchema = named(
  'ForkAnswer',
  z.object({
    status: z.literal('forked'),
    from: z.string(),
    workspace: z.string(),
    path: z.string().meta({ description: 'The path prefix of the new workspace, /w/<name>.' }),
    callbacks: z.enum(['paused', 'kept']),
    imported: importSummarySchema,
  }),
);

/** The answer of POST /_sandbox/fork. */
export type ForkAnswer = z.infer<typeof forkAnswerSchema>;

const fork = createRoute({
  method: 'post',
  path: '/',
  operationId: 'forkWorkspace',
  tags: ['sandbox'],
  summary: 'Copy this workspace under a new name, in one step',
  description: `The new workspace starts with everything this one holds (trades, callbacks, pending steps, clock, merchants, scenarios, profile); from then on each changes alone. It counts toward --max-workspaces. ${EVERY_WORKSPACE}`,
  security: SECURITY.admin,
  request: { body: jsonRequest(forkRequestSchema, ADMIN_BODY_LIMIT) },
  responses: {
    201: answer('The new workspace and what it holds.', forkAnswerSchema),
    401: ADMIN_401,
    404: error('This workspace does not exist (a fork is made of an existing one).'),
    409: error('A workspace of that name exists already (code workspace_exists), or differs from one only in case on a file system that folds case.'),
    413: ADMIN_TOO_LARGE,
    422: error(`${BODY_422} to must be a workspace name.`),
    429: error('--max-workspaces workspaces exist already (code workspace_limit).'),
  },
});

/**
 * POST /_sandbox/fork: copies the request's workspace under a new name (WorkspaceRegistry.create,
 * filled with the source's state document before any request reaches it). The rows are shared,
 * not copied: a store never changes a row in place, so a write to either makes a new row of its own.
 */
export function forkRoutes() {
  const app = new ResourceApp();
  app.use(requireSandboxAdmin);
  return app.openapi(fork, async (c) => {
    const server = c.get('server');
    const source = c.get('sandbox');
    const { to, callbacks = 'paused' } = c.req.valid('json');
    // A request to a name no workspace has runs in one on trial (made for it, dropped with this 404).
    if (!server.workspaces.has(source.workspace)) {
      throw new SandboxError(404, 'workspace_not_found', `There is no workspace ${JSON.stringify(source.workspace)} to fork. GET /_sandbox/workspaces lists them.`);
    }
    let imported: ImportSummary | undefined;
    const created = await server.workspaces.create(to, async (sandbox) => {
      const planned = planImport(sandbox, exportState(source), { callbacks, trusted: true });
      // A trusted document is refused only when its scenarios or profile no longer load here.
      if (!planned.ok)
        throw new SandboxError(422, 'invalid_state', `The workspace cannot be forked: ${planned.problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`, { details: planned.problems });
      imported = await applyImport(sandbox, planned.plan);
    });
    if (!created.ok) {
      if (created.reason === 'exists') throw new SandboxError(409, 'workspace_exists', created.message);
      if (created.reason === 'case_twin') throw new SandboxError(409, 'workspace_name_taken', created.message);
      if (created.reason === 'limit') throw new SandboxError(429, 'workspace_limit', created.message, { details: [{ field: '--max-workspaces', message: 'limit reached' }] });
      if (created.reason === 'invalid_name') throw new SandboxError(422, 'validation_failed', created.message, { details: [{ field: 'to', message: created.message }] });
      throw new SandboxError(503, 'shutting_down', created.message);
    }
    const workspace = created.sandbox;
    return c.json({ status: 'forked' as const, from: source.workspace, workspace: workspace.workspace, path: workspace.basePath, callbacks, imported: imported as ImportSummary }, 201);
  });
}
