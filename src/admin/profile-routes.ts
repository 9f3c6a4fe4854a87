import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { requireSandboxAdmin } from '../http/admin-guard.js';
import { ADMIN_BODY_LIMIT, TEXT_BODY } from '../http/body.js';
import { SandboxError } from '../http/errors.js';
import { yamlRequest } from '../http/request-body.js';
import { ResourceApp } from '../http/resource-app.js';
import type { SandboxEnv } from '../http/sandbox-env.js';
import { ADMIN_401, ADMIN_TOO_LARGE, answer, error, EVERY_WORKSPACE } from '../openapi/error-responses.js';
import { named } from '../openapi/schema-name.js';
import { SECURITY } from '../openapi/security.js';
import { profileFileSchema, profileSchema } from '../profile/profile-schema.js';
import { setWorkspaceProfile } from '../profile/workspace-profile.js';

named(
  'ProfileFile',
  profileFileSchema,
  'Body of PUT /_sandbox/profile: a provider profile file (docs/provider-profile.md; profiles/profile.schema.json is the same schema for editors). Beyond this schema the sandbox refuses what JSON Schema cannot say: secret: key with a plain hash, a slot secret with an HMAC, an errors.body that is not JSON once filled in.',
);

export const profileAnswerSchema = named(
  'ProfileAnswer',
  z.object({
    workspace: z.string(),
    source: z.enum(['server', 'workspace']).meta({ description: "server: the server's profile (serve --profile). workspace: this workspace's own, set with PUT." }),
    profile: profileSchema,
  }),
);

const read = createRoute({
  method: 'get',
  path: '/',
  operationId: 'getProfile',
  tags: ['sandbox'],
  summary: 'The provider profile this workspace follows',
  description: `Resolved: \`extends\` applied, every key there. ${EVERY_WORKSPACE}`,
  security: SECURITY.admin,
  responses: { 200: answer('The profile in force and where it comes from.', profileAnswerSchema), 401: ADMIN_401 },
});

const set = createRoute({
  method: 'put',
  path: '/',
  operationId: 'setProfile',
  tags: ['sandbox'],
  summary: "Set this workspace's own provider profile (YAML or JSON, the format of a profile file)",
  description: `In force from the next request; trades keep the data they were created with, and a callback is signed with the profile in force when it is sent. Kept in the store: it survives a restart and a reset. ${EVERY_WORKSPACE}`,
  security: SECURITY.admin,
  request: { body: yamlRequest(profileFileSchema, ADMIN_BODY_LIMIT, 'A provider profile file') },
  responses: {
    200: answer('The profile now in force.', profileAnswerSchema),
    401: ADMIN_401,
    413: ADMIN_TOO_LARGE,
    422: error('Not a valid profile (each problem with its line, column and key); nothing changed.'),
  },
});

const clear = createRoute({
  method: 'delete',
  path: '/',
  operationId: 'clearProfile',
  tags: ['sandbox'],
  summary: "Go back to the server's provider profile",
  security: SECURITY.admin,
  responses: { 200: answer('The profile now in force.', profileAnswerSchema), 401: ADMIN_401 },
});

const profileAnswer = (c: Context<SandboxEnv>) => {
  const sandbox = c.get('sandbox');
  return { workspace: sandbox.workspace, source: sandbox.profileSource, profile: sandbox.profile };
};

/**
 * GET /_sandbox/profile: the provider profile the workspace follows (docs/provider-profile.md).
 * PUT (YAML or JSON) sets the workspace's own, checked as a profile file is at start-up; DELETE
 * goes back to the server's.
 */
export function profileRoutes() {
  const app = new ResourceApp();
  app.use(requireSandboxAdmin);
  return app
    .openapi(read, (c) => c.json(profileAnswer(c), 200))
    .openapi(set, async (c) => {
      const upload = await setWorkspaceProfile(c.get('sandbox'), c.get(TEXT_BODY));
      if (!upload.ok) {
        const details = upload.error.problems.map((p) => ({
          field: [p.line !== undefined ? `line ${p.line}${p.column !== undefined ? ` column ${p.column}` : ''}` : '', p.path].filter(Boolean).join(' ') || 'body',
          message: p.message,
        }));
        throw new SandboxError(422, 'invalid_profile', upload.error.message, { details });
      }
      return c.json(profileAnswer(c), 200);
    })
    .openapi(clear, async (c) => {
      await setWorkspaceProfile(c.get('sandbox'), null);
      return c.json(profileAnswer(c), 200);
    });
}
