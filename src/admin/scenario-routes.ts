import { Hono } from 'hono';
import { requireSandboxAdmin } from '../http/admin-guard.js';
import { ADMIN_BODY_LIMIT, TEXT_BODY, textBody } from '../http/body.js';
import { SandboxError } from '../http/errors.js';
import type { SandboxEnv } from '../http/sandbox-env.js';
import { setUploadedScenarios } from '../scenarios/uploaded-scenarios.js';

/**
 * GET /_sandbox/scenarios: the loaded scenarios, in match order. PUT (a YAML body, like a
 * scenario file) sets this sandbox's (workspace's) own scenarios, matched before the shared
 * ones; DELETE removes them.
 */
export function scenarioRoutes() {
  const app = new Hono<SandboxEnv>();
  app.use(requireSandboxAdmin);
  app.get('/', (c) => {
    const sandbox = c.get('sandbox');
    return c.json({ scenarios: sandbox.scenarios.list() });
  });
  app.put('/', textBody(ADMIN_BODY_LIMIT), async (c) => {
    const sandbox = c.get('sandbox');
    const upload = await setUploadedScenarios(sandbox, c.get(TEXT_BODY));
    if (!upload.ok) {
      const details = upload.error.problems.map((p) => ({ field: [p.line !== undefined ? `line ${p.line}` : '', p.path].filter(Boolean).join(' ') || 'body', message: p.message }));
      throw new SandboxError(422, 'invalid_scenarios', upload.error.message, { details });
    }
    return c.json({ workspace: sandbox.workspace, added: upload.entries.map((e) => e.scenario.name), scenarios: sandbox.scenarios.list() });
  });
  app.delete('/', async (c) => {
    const sandbox = c.get('sandbox');
    await setUploadedScenarios(sandbox, null);
    return c.json({ workspace: sandbox.workspace, scenarios: sandbox.scenarios.list() });
  });
  return app;
}
