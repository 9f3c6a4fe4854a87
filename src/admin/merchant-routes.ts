import { Hono } from 'hono';
import { z } from 'zod';
import { SIGNATURE_ALGORITHM, sign } from '../auth/signature.js';
import { requireSandboxAdmin } from '../http/admin-guard.js';
import { ADMIN_BODY_LIMIT, jsonBody } from '../http/body.js';
import { errors } from '../http/errors.js';
import type { SandboxEnv } from '../http/sandbox-env.js';
import { validate } from '../http/validation.js';
import { addMerchant, newMerchantSchema } from '../merchants/added-merchants.js';
import type { MerchantsAnswer } from './admin-answers.js';

/** The body of POST /_sandbox/merchants/:id/sign. */
export const signRequestSchema = z.object({ string_to_sign: z.string({ error: 'must be the string to sign' }) });

/**
 * /_sandbox/merchants: GET lists the merchants of this sandbox (workspace) and the `--auth`
 * mode, POST adds one, POST /:id/sign signs with one's secret. Behind the admin token when one
 * is set.
 */
export function merchantRoutes() {
  const app = new Hono<SandboxEnv>();
  app.use(requireSandboxAdmin);
  app.get('/', (c) => {
    const sandbox = c.get('sandbox');
    const fixtures = new Set(sandbox.shared.fixtures.merchants.map((m) => m.id.toLowerCase()));
    const answer: MerchantsAnswer = {
      auth: sandbox.options.auth,
      merchants: sandbox.merchants
        .list()
        .map(({ id, name, rate, token, secret }) => (fixtures.has(id.toLowerCase()) ? { id, name, rate, from: 'fixtures' as const, token, secret } : { id, name, rate, from: 'workspace' as const })),
    };
    return c.json(answer);
  });

  // Adds a merchant to this sandbox (workspace) only; its token and secret are answered here and never listed again.
  app.post('/', jsonBody(ADMIN_BODY_LIMIT, { lenient: true }), validate('json', newMerchantSchema), async (c) => {
    const sandbox = c.get('sandbox');
    const added = await addMerchant(sandbox, c.req.valid('json'));
    if (!added.ok) throw errors.conflict('merchant_exists', `A merchant with id ${added.taken.id} (${added.taken.name}) already exists in this workspace. Leave "id" out to get a new one.`);
    return c.json({ merchant: added.merchant, workspace: sandbox.workspace }, 201);
  });

  // For `deposit-sandbox sign --workspace`: signs with a merchant's secret without showing it.
  app.post('/:id/sign', jsonBody(ADMIN_BODY_LIMIT, { lenient: true }), validate('json', signRequestSchema), async (c) => {
    const sandbox = c.get('sandbox');
    const merchant = sandbox.merchants.get(c.req.param('id'));
    if (!merchant) throw errors.notFound(`No merchant ${JSON.stringify(c.req.param('id'))} in workspace ${sandbox.workspace}. GET ${sandbox.basePath}/_sandbox/merchants lists them.`);
    const { string_to_sign } = c.req.valid('json');
    return c.json({ signature: sign(merchant.secret, string_to_sign), algorithm: SIGNATURE_ALGORITHM, merchant: merchant.id });
  });
  return app;
}
