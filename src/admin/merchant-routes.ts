import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { SECRET_PLACES, SIGNATURE_ALGORITHMS, SIGNATURE_ENCODINGS } from '../profile/profile-schema.js';
import { signingLabel, signSlots } from '../profile/sign-slots.js';
import { requireSandboxAdmin } from '../http/admin-guard.js';
import { ADMIN_BODY_LIMIT } from '../http/body.js';
import { errors } from '../http/errors.js';
import { jsonRequest } from '../http/request-body.js';
import { ResourceApp } from '../http/resource-app.js';
import { addMerchant, newMerchantSchema } from '../merchants/added-merchants.js';
import { ADMIN_401, ADMIN_TOO_LARGE, answer, error, EVERY_WORKSPACE } from '../openapi/error-responses.js';
import { pathParams } from '../openapi/path-params.js';
import { named } from '../openapi/schema-name.js';
import { SECURITY } from '../openapi/security.js';
import { addMerchantAnswerSchema, type MerchantsAnswer, merchantsAnswerSchema, signAnswerSchema } from './admin-answers.js';

/** A provider profile's request signing rule (`requests.signature`, its header aside), for signing as another profile than the workspace's. */
const signingSchema = z
  .object({
    algorithm: z.enum(SIGNATURE_ALGORITHMS),
    separator: z.string().max(16),
    secret: z.enum(SECRET_PLACES),
    encoding: z.enum(SIGNATURE_ENCODINGS),
  })
  .refine((signing) => signing.algorithm.startsWith('hmac-') === (signing.secret === 'key'), {
    path: ['secret'],
    message: 'must be key with hmac-sha256 or hmac-sha512, and last-slot or first-slot with sha256, sha512, sha1 or md5',
  })
  .meta({ description: "requests.signature of a provider profile (docs/provider-profile.md); header is not needed. Left out: the workspace's profile's." });

/** The body of POST /_sandbox/merchants/:id/sign. */
export const signRequestSchema = named(
  'SignRequest',
  z.object({
    string_to_sign: z.string({ error: 'must be the string to sign' }).meta({
      description: "The values joined with the profile's separator, without the secret: a secret slot is added where the profile puts it.",
    }),
    signing: signingSchema.optional(),
  }),
);

named('NewMerchantRequest', newMerchantSchema, 'Every field may be left out and is then generated.');

const list = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listMerchants',
  tags: ['sandbox'],
  summary: "The merchants: the fixtures' (with their token and secret) and the workspace's own (without)",
  description: `Ids, names, rates and where each merchant comes from, and the --auth mode. The fixtures' merchants come with their token and secret, which the dashboard's New trade form uses to call the provider API as the merchant; a merchant added to a workspace had them answered once, in the 201 of POST /_sandbox/merchants. ${EVERY_WORKSPACE}`,
  security: SECURITY.admin,
  responses: { 200: answer('The merchants and the auth mode.', merchantsAnswerSchema), 401: ADMIN_401 },
});

const add = createRoute({
  method: 'post',
  path: '/',
  operationId: 'addMerchant',
  tags: ['sandbox'],
  summary: 'Add a merchant to this workspace only',
  description: `Fields left out are generated; the token and secret are answered here only. ${EVERY_WORKSPACE}`,
  security: SECURITY.admin,
  // Lenient: `curl -d` without a Content-Type reaches it, and no body at all adds a generated merchant.
  request: { body: jsonRequest(newMerchantSchema, ADMIN_BODY_LIMIT, { lenient: true }) },
  responses: {
    201: answer('The new merchant with its token and secret.', addMerchantAnswerSchema),
    401: ADMIN_401,
    409: error('The id is taken.'),
    413: ADMIN_TOO_LARGE,
    422: error('A field is not valid.'),
  },
});

const signAs = createRoute({
  method: 'post',
  path: '/{id}/sign',
  operationId: 'signAsMerchant',
  tags: ['sandbox'],
  summary: "Sign a string with a merchant's secret (without showing it), as the workspace's provider profile signs",
  security: SECURITY.admin,
  request: { params: pathParams({ id: 'The merchant id.' }), body: jsonRequest(signRequestSchema, ADMIN_BODY_LIMIT, { lenient: true }) },
  responses: {
    200: answer("The signature, as the profile makes it (hex HMAC-SHA256 under sandbox), and the algorithm's name.", signAnswerSchema),
    401: ADMIN_401,
    404: error('No such merchant in this workspace.'),
    413: ADMIN_TOO_LARGE,
    422: error('The body is not a JSON object holding string_to_sign.'),
  },
});

/**
 * /_sandbox/merchants: GET lists the merchants of this sandbox (workspace) and the `--auth`
 * mode, POST adds one, POST /:id/sign signs with one's secret. Behind the admin token when one
 * is set.
 */
export function merchantRoutes() {
  const app = new ResourceApp();
  app.use(requireSandboxAdmin);
  return (
    app
      .openapi(list, (c) => {
        const sandbox = c.get('sandbox');
        const fixtures = new Set(sandbox.shared.fixtures.merchants.map((m) => m.id.toLowerCase()));
        const answer: MerchantsAnswer = {
          auth: sandbox.options.auth,
          merchants: sandbox.merchants
            .list()
            .map(({ id, name, rate, token, secret }) =>
              fixtures.has(id.toLowerCase()) ? { id, name, rate, from: 'fixtures' as const, token, secret } : { id, name, rate, from: 'workspace' as const },
            ),
        };
        return c.json(answer, 200);
      })
      // Adds a merchant to this sandbox (workspace) only; its token and secret are answered here and never listed again.
      .openapi(add, async (c) => {
        const sandbox = c.get('sandbox');
        const added = await addMerchant(sandbox, c.req.valid('json'));
        if (!added.ok) throw errors.conflict('merchant_exists', `A merchant with id ${added.taken.id} (${added.taken.name}) already exists in this workspace. Leave "id" out to get a new one.`);
        return c.json({ merchant: added.merchant, workspace: sandbox.workspace }, 201);
      })
      // For `deposit-sandbox sign --workspace`: signs with a merchant's secret without showing it,
      // under the workspace's provider profile or the rule sent. The string is one slot: a secret
      // slot goes after or before it, with the separator, as in the profile's string to sign.
      .openapi(signAs, (c) => {
        const sandbox = c.get('sandbox');
        const merchant = sandbox.merchants.get(c.req.param('id'));
        if (!merchant) throw errors.notFound(`No merchant ${JSON.stringify(c.req.param('id'))} in workspace ${sandbox.workspace}. GET ${sandbox.basePath}/_sandbox/merchants lists them.`);
        const { string_to_sign, signing = sandbox.profile.requests.signature } = c.req.valid('json');
        return c.json({ signature: signSlots(signing, [string_to_sign], merchant.secret), algorithm: signingLabel(signing), merchant: merchant.id }, 200);
      })
  );
}
