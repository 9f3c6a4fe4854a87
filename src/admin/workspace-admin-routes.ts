import { Hono } from 'hono';
import { validate } from '../http/validation.js';
import { SIGNATURE_ALGORITHM, sign } from '../auth/signature.js';
import { errors, SandboxError } from '../http/errors.js';
import { ADMIN_BODY_LIMIT, jsonBody, TEXT_BODY, textBody } from '../http/body.js';
import type { SandboxEnv } from '../http/sandbox-env.js';
import { requireSandboxAdmin } from '../http/admin-guard.js';
import { signRequestSchema } from '../workspaces/workspace-answers.js';
import { addWorkspaceMerchant, newMerchantSchema } from '../merchants/added-merchants.js';
import { setWorkspaceScenarios } from '../scenarios/uploaded-scenarios.js';

/**
 * POST /_sandbox/merchants of a sandbox (every workspace, default included) adds a merchant to
 * this workspace only; its token and secret are answered in the 201 and never listed again
 * (GET is src/admin/merchant-routes.ts). POST /_sandbox/merchants/:id/sign signs with a
 * merchant's secret without showing it.
 */
export function workspaceMerchantRoutes() {
  const app = new Hono<SandboxEnv>();
  app.use(requireSandboxAdmin);

  app.post('/', jsonBody(ADMIN_BODY_LIMIT, { lenient: true }), validate('json', newMerchantSchema.strict()), async (c) => {
    const sandbox = c.get('sandbox');
    const input = c.req.valid('json');
    const added = await addWorkspaceMerchant(sandbox, input);
    if (!added.ok) throw errors.conflict('merchant_exists', `A merchant with id ${added.taken.id} (${added.taken.name}) already exists in this workspace. Leave "id" out to get a new one.`);
    return c.json({ merchant: added.merchant, workspace: sandbox.workspace }, 201);
  });

  // For `deposit-sandbox sign --workspace`: signs with a workspace merchant's secret without showing it.
  app.post('/:id/sign', jsonBody(ADMIN_BODY_LIMIT, { lenient: true }), validate('json', signRequestSchema), async (c) => {
    const sandbox = c.get('sandbox');
    const merchant = sandbox.merchants.get(c.req.param('id'));
    if (!merchant) throw errors.notFound(`No merchant ${JSON.stringify(c.req.param('id'))} in workspace ${sandbox.workspace}. GET ${sandbox.basePath}/_sandbox/merchants lists them.`);
    const { string_to_sign } = c.req.valid('json');
    return c.json({ signature: sign(merchant.secret, string_to_sign), algorithm: SIGNATURE_ALGORITHM, merchant: merchant.id });
  });
  return app;
}

/**
 * PUT /_sandbox/scenarios (a YAML body, like a scenario file) sets this workspace's own
 * scenarios, matched before the shared ones; DELETE removes them.
 */
export function scenarioUploadRoutes() {
  const app = new Hono<SandboxEnv>();
  app.use(requireSandboxAdmin);
  app.put('/', textBody(ADMIN_BODY_LIMIT), async (c) => {
    const sandbox = c.get('sandbox');
    const upload = await setWorkspaceScenarios(sandbox, c.get(TEXT_BODY));
    if (!upload.ok) {
      const details = upload.error.problems.map((p) => ({ field: [p.line !== undefined ? `line ${p.line}` : '', p.path].filter(Boolean).join(' ') || 'body', message: p.message }));
      throw new SandboxError(422, 'invalid_scenarios', upload.error.message, { details });
    }
    return c.json({ workspace: sandbox.workspace, added: upload.entries.map((e) => e.scenario.name), scenarios: sandbox.scenarios.list() });
  });
  app.delete('/', async (c) => {
    const sandbox = c.get('sandbox');
    await setWorkspaceScenarios(sandbox, null);
    return c.json({ workspace: sandbox.workspace, scenarios: sandbox.scenarios.list() });
  });
  return app;
}
