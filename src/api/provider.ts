import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { authenticate } from '../auth/authenticate.js';
import { JSON_BODY } from '../http/body.js';
import { errors } from '../http/errors.js';
import { loseAnswer } from '../http/lose-answer.js';
import { orRefuse } from '../http/refusal-error.js';
import { jsonRequest } from '../http/request-body.js';
import { ResourceApp } from '../http/resource-app.js';
import type { SandboxEnv } from '../http/sandbox-env.js';
import { answer, BODY_422, error, TOO_LARGE } from '../openapi/error-responses.js';
import { pathParams } from '../openapi/path-params.js';
import { named } from '../openapi/schema-name.js';
import { SECURITY } from '../openapi/security.js';
import { markProviderRequest } from './provider-error-body.js';
import { requestScheme } from '../profile/request-scheme.js';
import { createWithScenario } from '../scenarios/create-with-scenario.js';
import { SCENARIO_HEADER } from '../scenarios/scenario.js';
import { buildRequestSchema, createRequestSchema, LIMITS } from '../trades/requests.js';
import { findTrade } from '../trades/service.js';
import { ecomTradeSchema, p2pTradeSchema, toTrade } from '../trades/trade.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

named('CreateRequest', createRequestSchema, 'Body of POST /api/v1/trades/deposit/create. `customer` and `cusotmer` are two spellings of one field.');
named('BuildRequest', buildRequestSchema, 'Body of POST /api/v1/trades/deposit/build.');
named('Trade', p2pTradeSchema, 'The Trade object of the interface document: exactly these eight keys. The answer of P2P create and of every get.');
named('EcomTrade', ecomTradeSchema, 'The Trade object as ecom create (build) answers it: payment_data has only url.');

const PROVIDER_401 = error(
  'Authentication failed: missing or wrong X-Auth / X-Token, unknown merchant, or a signature mismatch (then `error.signature` shows the string to sign the sandbox used). A scenario may force it too.',
);

/** Where a created trade leads: reading it, moving it (admin), and the page its payer opens. */
const CREATED_LINKS = {
  GetTrade: {
    operationId: 'getTrade',
    parameters: { merchant: '$request.body#/merchant', uuid: '$response.body#/id' },
    description: 'Read the trade as the merchant that created it (X-Token).',
  },
  TransitionTrade: {
    operationId: 'transitionTrade',
    parameters: { id: '$response.body#/id' },
    description: 'Move the trade to a state (admin API).',
  },
  PaymentPage: {
    operationId: 'paymentPage',
    parameters: { id: '$response.body#/id' },
    description: "The trade's hosted payment page (payment_data.url).",
  },
};

/** Authenticates a create (or build) with the body jsonBody() parsed, before the body is validated. */
const authenticateBody =
  (endpoint: 'create' | 'build'): MiddlewareHandler<SandboxEnv> =>
  (c, next) => {
    const sandbox = c.get('sandbox');
    const body = c.get(JSON_BODY);
    orRefuse(
      authenticate(sandbox.merchants, {
        mode: sandbox.options.auth,
        endpoint,
        header: (name) => c.req.header(name),
        merchantId: body['merchant'],
        values: body,
        scheme: requestScheme(sandbox.profile, endpoint),
      }),
    );
    return next();
  };

/** POST /deposit/create (P2P) and /deposit/build (ecom): they differ only in the body they take and the view they answer. */
function createRouteOf<const Endpoint extends 'create' | 'build'>(endpoint: Endpoint) {
  const p2p = endpoint === 'create';
  return createRoute({
    method: 'post',
    path: `/deposit/${endpoint}`,
    operationId: p2p ? 'createDeposit' : 'buildDeposit',
    tags: ['provider'],
    summary: p2p ? 'Create a P2P deposit (any_bank or nspk)' : 'Create an ecom deposit',
    description: p2p
      ? 'The answer carries the requisites to pay to in payment_data (name, number, bank_name) and the hosted payment page url.'
      : 'The answer carries only the hosted payment page url in payment_data.',
    security: SECURITY.xAuth,
    parameters: [{ name: SCENARIO_HEADER, in: 'header', required: false, description: 'Picks a scenario by name (it wins over matching); see GET /_sandbox/scenarios.', schema: { type: 'string' } }],
    request: { body: jsonRequest(p2p ? createRequestSchema : buildRequestSchema, LIMITS.maxBodyBytes) },
    middleware: [authenticateBody(endpoint)],
    responses: {
      201: {
        ...answer('The trade was created.', p2p ? p2pTradeSchema : ecomTradeSchema),
        headers: { [SCENARIO_HEADER]: { description: 'The scenario that matched the trade, when one did.', schema: { type: 'string' } } },
        links: CREATED_LINKS,
      },
      401: PROVIDER_401,
      413: TOO_LARGE(LIMITS.maxBodyBytes),
      422: error(`${BODY_422} Also: a second trade with the same order for the merchant (duplicate_order), or a scenario's forced 422.`),
    },
  });
}

const get = createRoute({
  method: 'get',
  path: '/{merchant}/{uuid}',
  operationId: 'getTrade',
  tags: ['provider'],
  summary: 'Read a trade',
  security: SECURITY.xToken,
  request: { params: pathParams({ merchant: 'The merchant id (UUID).', uuid: 'The trade id returned by create or build.' }, ['merchant', 'uuid']) },
  responses: {
    200: answer('The trade as it is now; payment_data has all four fields, for ecom trades too.', p2pTradeSchema),
    401: PROVIDER_401,
    404: error("The merchant has no such trade (another merchant's trade is reported the same way)."),
  },
});

/** The three endpoints of the interface document, mounted at /api/v1/trades. */
export function providerRoutes() {
  const app = new ResourceApp();
  app.use(markProviderRequest);
  for (const endpoint of ['create', 'build'] as const) {
    app.openapi(createRouteOf(endpoint), async (c) => {
      const sandbox = c.get('sandbox');
      const { trade, scenario, answer } = orRefuse(await createWithScenario(sandbox, c.req.valid('json'), c.req.header(SCENARIO_HEADER)));
      await sandbox.store.commit();
      if (scenario) c.set('scenario', scenario.name);
      // Scenario faults after the save: no answer at all (no status the declaration lists), or a late one (src/scenarios/scenario.ts, answer).
      if (answer?.lost) return loseAnswer(c) as never;
      if (answer?.delay) await sandbox.scenarios.wait(answer.delay);
      if (scenario) c.header(SCENARIO_HEADER, scenario.name);
      c.set('answered', trade);
      return c.json(toTrade(trade, endpoint, sandbox.publicUrl), 201);
    });
  }

  return app.openapi(get, (c) => {
    const sandbox = c.get('sandbox');
    const { merchant, uuid } = c.req.param();
    if (merchant === 'deposit' && (uuid === 'create' || uuid === 'build')) {
      throw errors.notFound(`/api/v1/trades/deposit/${uuid} takes POST with a JSON body, not GET.`);
    }
    orRefuse(
      authenticate(sandbox.merchants, {
        mode: sandbox.options.auth,
        endpoint: 'get',
        header: (name) => c.req.header(name),
        merchantId: merchant,
        values: { merchant, uuid },
        scheme: requestScheme(sandbox.profile, 'get'),
      }),
    );
    if (!UUID.test(uuid)) {
      throw errors.notFound(`No trade ${JSON.stringify(uuid)}: the trade identifier in the path must be the UUID "id" returned when the trade was created.`);
    }
    const trade = findTrade(sandbox.store, merchant, uuid);
    if (!trade) {
      throw errors.notFound(`Merchant ${merchant} has no trade ${uuid}. Use the "id" from the create response (not your order) and the same merchant that created it.`);
    }
    // The stored JSON of the trade (src/trades/trade-json.ts), answered as it is: the 200 of p2pTradeSchema.
    c.set('answered', trade);
    return c.body(sandbox.tradeJson.get(trade, sandbox.publicUrl), 200, { 'Content-Type': 'application/json' }) as never;
  });
}
