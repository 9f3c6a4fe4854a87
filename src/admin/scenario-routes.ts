import { createRoute } from '@hono/zod-openapi';
import { requireSandboxAdmin } from '../http/admin-guard.js';
import { ADMIN_BODY_LIMIT, TEXT_BODY } from '../http/body.js';
import { SandboxError } from '../http/errors.js';
import { yamlRequest } from '../http/request-body.js';
import { ResourceApp } from '../http/resource-app.js';
import { ADMIN_401, ADMIN_TOO_LARGE, answer, error, EVERY_WORKSPACE } from '../openapi/error-responses.js';
import { named } from '../openapi/schema-name.js';
import { SECURITY } from '../openapi/security.js';
import { scenarioFileSchema } from '../scenarios/scenario.js';
import { setUploadedScenarios } from '../scenarios/uploaded-scenarios.js';
import { scenariosAnswerSchema, scenarioUploadAnswerSchema } from './admin-answers.js';

named(
  'ScenarioFile',
  scenarioFileSchema,
  'Body of PUT /_sandbox/scenarios: a scenario file (docs/scenarios.md; scenarios/schema.json is the same schema for editors). Beyond this schema the sandbox refuses what JSON Schema cannot say, for example: a regular expression RE2 cannot compile, a name a shared scenario has, respond together with timeline, callbacks or answer, a timeline out of time order or with a move the transitions do not allow, a match without a condition, a delay over 5m, retry_after without status 503.',
);

const list = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listScenarios',
  tags: ['sandbox'],
  summary: 'The loaded scenarios, in match order',
  security: SECURITY.admin,
  responses: { 200: answer('Every scenario with its trigger (magic value) and effect.', scenariosAnswerSchema), 401: ADMIN_401 },
});

const set = createRoute({
  method: 'put',
  path: '/',
  operationId: 'setWorkspaceScenarios',
  tags: ['sandbox'],
  summary: "Set this workspace's own scenarios (a YAML body, the format of a scenario file)",
  description: `They are matched before the shared ones, replace the ones sent before, and are checked with the messages of scenario files. ${EVERY_WORKSPACE}`,
  security: SECURITY.admin,
  request: { body: yamlRequest(scenarioFileSchema, ADMIN_BODY_LIMIT) },
  responses: {
    200: answer('The scenarios now loaded, in match order.', scenarioUploadAnswerSchema),
    401: ADMIN_401,
    413: ADMIN_TOO_LARGE,
    422: error('The YAML is not a valid scenario file (each problem with its line and field), or not UTF-8.'),
  },
});

const clear = createRoute({
  method: 'delete',
  path: '/',
  operationId: 'clearWorkspaceScenarios',
  tags: ['sandbox'],
  summary: "Remove this workspace's own scenarios",
  security: SECURITY.admin,
  responses: { 200: answer('The scenarios now loaded.', scenarioUploadAnswerSchema), 401: ADMIN_401 },
});

/**
 * GET /_sandbox/scenarios: the loaded scenarios, in match order. PUT (a YAML body, like a
 * scenario file) sets this sandbox's (workspace's) own scenarios, matched before the shared
 * ones; DELETE removes them.
 */
export function scenarioRoutes() {
  const app = new ResourceApp();
  app.use(requireSandboxAdmin);
  return app
    .openapi(list, (c) => c.json({ scenarios: c.get('sandbox').scenarios.list() }, 200))
    .openapi(set, async (c) => {
      const sandbox = c.get('sandbox');
      const upload = await setUploadedScenarios(sandbox, c.get(TEXT_BODY));
      if (!upload.ok) {
        const details = upload.error.problems.map((p) => ({ field: [p.line !== undefined ? `line ${p.line}` : '', p.path].filter(Boolean).join(' ') || 'body', message: p.message }));
        throw new SandboxError(422, 'invalid_scenarios', upload.error.message, { details });
      }
      return c.json({ workspace: sandbox.workspace, added: upload.entries.map((e) => e.scenario.name), scenarios: sandbox.scenarios.list() }, 200);
    })
    .openapi(clear, async (c) => {
      const sandbox = c.get('sandbox');
      await setUploadedScenarios(sandbox, null);
      return c.json({ workspace: sandbox.workspace, scenarios: sandbox.scenarios.list() }, 200);
    });
}
