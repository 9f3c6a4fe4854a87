import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { checkCallbackReceiver } from '../check-callback/check-callback-receiver.js';
import { checkReportSchema } from '../check-callback/check-report.js';
import { requireSandboxAdmin } from '../http/admin-guard.js';
import { ADMIN_BODY_LIMIT } from '../http/body.js';
import { jsonRequest } from '../http/request-body.js';
import { ResourceApp } from '../http/resource-app.js';
import { ADMIN_401, ADMIN_TOO_LARGE, answer, BODY_422, error } from '../openapi/error-responses.js';
import { named } from '../openapi/schema-name.js';
import { SECURITY } from '../openapi/security.js';
import { fixturesMerchant, fixturesMerchantField } from './fixtures-merchant.js';
import { isHttpUrl, LIMITS } from '../trades/requests.js';

/** Body of POST /_sandbox/check-callback. */
export const checkCallbackRequestSchema = named(
  'CheckCallbackRequest',
  z.object(
    {
      url: z
        .string({ error: 'url is required: the callback receiver to check, e.g. "http://127.0.0.1:3000/deposit-callback"' })
        .max(LIMITS.maxUrlLength, `url must be at most ${LIMITS.maxUrlLength} characters`)
        .refine(isHttpUrl, 'url must be an absolute http:// or https:// URL, e.g. "http://127.0.0.1:3000/deposit-callback"'),
      /** The merchant whose secret signs the callbacks; default: the first merchant of the fixtures. */
      merchant: fixturesMerchantField,
      /** The order in the valid callbacks; default: a made-up "check-..." order. */
      order: z.string({ error: 'order must be a string' }).min(1, 'order must not be empty').max(LIMITS.maxOrderLength, `order must be at most ${LIMITS.maxOrderLength} characters`).optional(),
    },
    { error: 'must be a JSON object such as {"url": "http://127.0.0.1:3000/deposit-callback", "merchant": "<merchant id>"}' },
  ),
);

named('CheckReport', checkReportSchema, 'The result of a callback receiver check.');

const check = createRoute({
  method: 'post',
  path: '/',
  operationId: 'checkCallbackReceiver',
  tags: ['sandbox'],
  summary: 'Check a callback receiver',
  description:
    "Sends the receiver a valid callback, the same one again, an older state after a newer one, one with a wrong signature and one without, signed with the merchant's secret from the fixtures, and answers a verdict per case. Nothing is stored. Takes as long as the receiver does (each case is bounded by the callback timeout).",
  security: SECURITY.admin,
  request: { body: jsonRequest(checkCallbackRequestSchema, ADMIN_BODY_LIMIT) },
  responses: {
    200: answer('The report (passed is false when a case is flagged).', checkReportSchema),
    401: ADMIN_401,
    413: ADMIN_TOO_LARGE,
    422: error(`${BODY_422} Also: a merchant that is not in the fixtures.`),
  },
});

/**
 * POST /_sandbox/check-callback: sends a receiver the five check callbacks (see
 * src/check-callback) signed with a fixtures merchant's secret as this sandbox's provider
 * profile signs callbacks (at its clock's time), judged by the profile's acknowledgement rule,
 * and answers the report. Nothing is stored; the answer comes once every case has been answered
 * or timed out.
 */
export function checkCallbackRoutes() {
  const app = new ResourceApp();
  app.use(requireSandboxAdmin);
  return app.openapi(check, async (c) => {
    const sandbox = c.get('sandbox');
    const { url, merchant: id, order } = c.req.valid('json');
    const merchant = fixturesMerchant(sandbox, id, () => sandbox.merchants.list()[0]);
    const report = await checkCallbackReceiver({
      url,
      merchant,
      secretSource: `the fixtures' secret of ${merchant.name}`,
      publicUrl: sandbox.publicUrl,
      timeoutMs: sandbox.options.callbackTimeout,
      profile: sandbox.profile,
      now: () => sandbox.clock.now(),
      ...(order !== undefined ? { order } : {}),
    });
    return c.json(report, 200);
  });
}
