import { Hono } from 'hono';
import { z } from 'zod';
import { ADMIN_BODY_LIMIT, jsonBody } from '../http/body.js';
import { validate } from '../api/validation.js';
import { checkCallbackReceiver } from '../check-callback/check-callback-receiver.js';
import { errors } from '../errors.js';
import { requireSandboxAdmin, type SandboxEnv } from '../workspaces/request-sandbox.js';
import { isHttpUrl, LIMITS } from '../trades/requests.js';

/** Body of POST /_sandbox/check-callback. */
export const checkCallbackRequestSchema = z.object(
  {
    url: z
      .string({ error: 'url is required: the callback receiver to check, e.g. "http://127.0.0.1:3000/deposit-callback"' })
      .max(LIMITS.maxUrlLength, `url must be at most ${LIMITS.maxUrlLength} characters`)
      .refine(isHttpUrl, 'url must be an absolute http:// or https:// URL, e.g. "http://127.0.0.1:3000/deposit-callback"'),
    /** The merchant whose secret signs the callbacks; default: the first merchant of the fixtures. */
    merchant: z.string({ error: 'merchant must be a merchant id from the fixtures' }).max(100, 'merchant must be a merchant id from the fixtures').optional(),
    /** The order in the valid callbacks; default: a made-up "check-..." order. */
    order: z.string({ error: 'order must be a string' }).min(1, 'order must not be empty').max(LIMITS.maxOrderLength, `order must be at most ${LIMITS.maxOrderLength} characters`).optional(),
  },
  { error: 'must be a JSON object such as {"url": "http://127.0.0.1:3000/deposit-callback", "merchant": "<merchant id>"}' },
);

/**
 * POST /_sandbox/check-callback: sends a receiver the five check callbacks (see
 * src/check-callback) signed with a fixtures merchant's secret, and answers the report.
 * Nothing is stored; the answer comes once every case has been answered or timed out.
 */
export function checkCallbackRoutes() {
  const app = new Hono<SandboxEnv>();
  app.use(requireSandboxAdmin);

  app.post('/', jsonBody(ADMIN_BODY_LIMIT), validate('json', checkCallbackRequestSchema), async (c) => {
    const sandbox = c.get('sandbox');
    const { url, merchant: id, order } = c.req.valid('json');
    const merchant = id === undefined ? sandbox.merchants.list()[0] : sandbox.merchants.get(id);
    if (!merchant) {
      const known = sandbox.merchants.list().map((m) => m.id);
      throw errors.validation(`Merchant ${JSON.stringify(id)} is not in this sandbox's fixtures (it has ${known.join(', ')}).`, [
        { field: 'merchant', message: `must be a merchant id from the fixtures: ${known.join(', ')}` },
      ]);
    }
    const report = await checkCallbackReceiver({
      url,
      merchant,
      secretSource: `the fixtures' secret of ${merchant.name}`,
      publicUrl: sandbox.publicUrl,
      timeoutMs: sandbox.options.callbackTimeout,
      ...(order !== undefined ? { order } : {}),
    });
    return c.json(report);
  });

  return app;
}
