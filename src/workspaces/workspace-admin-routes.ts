import type { Context } from 'hono';
import { Hono } from 'hono';
import type { z } from 'zod';
import { SIGNATURE_ALGORITHM, sign } from '../auth/signature.js';
import { formatPath } from '../config/issues.js';
import { errors, SandboxError } from '../http/errors.js';
import type { SandboxEnv } from '../http/sandbox-env.js';
import { requireSandboxAdmin } from '../http/admin-guard.js';
import { signRequestSchema } from './workspace-answers.js';
import { addWorkspaceMerchant, newMerchantSchema } from './workspace-merchants.js';
import { setWorkspaceScenarios } from './workspace-scenarios.js';

const BODY_LIMIT = 256 * 1024;

/** The body as UTF-8 text, refused (413) past the limit. */
async function bodyText(c: Context): Promise<string> {
  const length = Number(c.req.header('Content-Length') ?? 0);
  if (length > BODY_LIMIT) throw errors.tooLarge(BODY_LIMIT);
  const text = await c.req.text();
  if (Buffer.byteLength(text) > BODY_LIMIT) throw errors.tooLarge(BODY_LIMIT);
  return text;
}

/** An optional JSON object body, checked against `schema` (422 naming each field). */
async function jsonObject<T extends z.ZodType>(c: Context, schema: T, example: string): Promise<z.output<T>> {
  const text = (await bodyText(c)).trim();
  let value: unknown = {};
  if (text !== '') {
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw errors.invalidJson(`The request body is not valid JSON (${(error as Error).message}). Send a JSON object such as ${example}, or no body.`);
    }
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    const details = result.error.issues.map((issue) => ({ field: formatPath(issue.path) || 'body', message: issue.message }));
    throw errors.validation(`The request body has ${details.length === 1 ? 'a problem' : `${details.length} problems`}: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}.`, details);
  }
  return result.data;
}

/**
 * POST /_sandbox/merchants of a sandbox (every workspace, default included) adds a merchant to
 * this workspace only; its token and secret are answered in the 201 and never listed again
 * (GET is src/admin/merchant-routes.ts). POST /_sandbox/merchants/:id/sign signs with a
 * merchant's secret without showing it.
 */
export function workspaceMerchantRoutes() {
  const app = new Hono<SandboxEnv>();
  app.use(requireSandboxAdmin);

  app.post('/', async (c) => {
    const sandbox = c.get('sandbox');
    const input = await jsonObject(c, newMerchantSchema.strict(), '{"name": "Shop of worker 3"}');
    const added = await addWorkspaceMerchant(sandbox, input);
    if (!added.ok) throw errors.conflict('merchant_exists', `A merchant with id ${added.taken.id} (${added.taken.name}) already exists in this workspace. Leave "id" out to get a new one.`);
    return c.json({ merchant: added.merchant, workspace: sandbox.workspace }, 201);
  });

  // For `deposit-sandbox sign --workspace`: signs with a workspace merchant's secret without showing it.
  app.post('/:id/sign', async (c) => {
    const sandbox = c.get('sandbox');
    const merchant = sandbox.merchants.get(c.req.param('id'));
    if (!merchant) throw errors.notFound(`No merchant ${JSON.stringify(c.req.param('id'))} in workspace ${sandbox.workspace}. GET ${sandbox.basePath}/_sandbox/merchants lists them.`);
    const { string_to_sign } = await jsonObject(c, signRequestSchema, '{"string_to_sign": "..."}');
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
  app.put('/', async (c) => {
    const sandbox = c.get('sandbox');
    const upload = await setWorkspaceScenarios(sandbox, await bodyText(c));
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
