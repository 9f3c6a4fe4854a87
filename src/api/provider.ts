import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { authenticate } from '../auth/authenticate.js';
import { errors } from '../errors.js';
import type { SandboxEnv } from '../workspaces/request-sandbox.js';
import { buildRequestSchema, createRequestSchema, type DepositRequest, LIMITS } from '../trades/requests.js';
import { createWithScenario } from '../scenarios/create-with-scenario.js';
import { SCENARIO_HEADER } from '../scenarios/scenario.js';
import { findTrade } from '../trades/service.js';
import { toTrade } from '../trades/trade.js';
import { tradeJson } from '../trades/trade-json.js';
import { JSON_BODY, jsonBody } from './json-body.js';
import { orRefuse } from './refusal-error.js';
import { validate } from './validation.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The three endpoints of the interface document, mounted at /api/v1/trades. */
export function providerRoutes() {
  const app = new Hono<SandboxEnv>();

  const body = jsonBody(LIMITS.maxBodyBytes);
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
        }),
      );
      return next();
    };

  /** Answers 201 with the trade a create made, once it is saved (or the refusal instead). */
  const answerCreated = async (c: Context<SandboxEnv>, view: 'create' | 'build', result: Awaited<ReturnType<typeof createWithScenario>>) => {
    const sandbox = c.get('sandbox');
    const { trade, scenario } = orRefuse(result);
    await sandbox.store.commit();
    if (scenario) c.header(SCENARIO_HEADER, scenario.name);
    return c.json(toTrade(trade, view, sandbox.publicUrl), 201);
  };
  // Awaited only when a scenario's response delay made it a promise: one wait fewer per create.
  const create = (c: Context<SandboxEnv>, view: 'create' | 'build', request: DepositRequest) => {
    const result = createWithScenario(c.get('sandbox'), request, c.req.header(SCENARIO_HEADER));
    return result instanceof Promise ? result.then((settled) => answerCreated(c, view, settled)) : answerCreated(c, view, result);
  };

  app.post('/deposit/create', body, authenticateBody('create'), validate('json', createRequestSchema), (c) => create(c, 'create', c.req.valid('json')));
  app.post('/deposit/build', body, authenticateBody('build'), validate('json', buildRequestSchema), (c) => create(c, 'build', c.req.valid('json')));

  app.get('/:merchant/:uuid', (c) => {
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
      }),
    );
    if (!UUID.test(uuid)) {
      throw errors.notFound(`No trade ${JSON.stringify(uuid)}: the trade identifier in the path must be the UUID "id" returned when the trade was created.`);
    }
    const trade = findTrade(sandbox.store, merchant, uuid);
    if (!trade) {
      throw errors.notFound(`Merchant ${merchant} has no trade ${uuid}. Use the "id" from the create response (not your order) and the same merchant that created it.`);
    }
    return c.body(tradeJson(trade, sandbox.publicUrl), 200, { 'Content-Type': 'application/json' });
  });

  return app;
}
