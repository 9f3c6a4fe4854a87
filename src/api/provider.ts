import { Hono, type MiddlewareHandler } from 'hono';
import { authenticate } from '../auth/authenticate.js';
import { errors } from '../errors.js';
import type { SandboxEnv } from '../workspaces/request-sandbox.js';
import { buildRequestSchema, createRequestSchema, LIMITS } from '../trades/requests.js';
import { createWithScenario } from '../scenarios/create-with-scenario.js';
import { SCENARIO_HEADER } from '../scenarios/scenario.js';
import { findTrade } from '../trades/service.js';
import { toTrade } from '../trades/trade.js';
import { tradeJson } from '../trades/trade-json.js';
import { JSON_BODY, jsonBody } from '../http/body.js';
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

  app.post('/deposit/create', body, authenticateBody('create'), validate('json', createRequestSchema), async (c) => {
    const sandbox = c.get('sandbox');
    const { trade, scenario } = orRefuse(await createWithScenario(sandbox, c.req.valid('json'), c.req.header(SCENARIO_HEADER)));
    await sandbox.store.commit();
    if (scenario) c.header(SCENARIO_HEADER, scenario.name);
    return c.json(toTrade(trade, 'create', sandbox.publicUrl), 201);
  });

  app.post('/deposit/build', body, authenticateBody('build'), validate('json', buildRequestSchema), async (c) => {
    const sandbox = c.get('sandbox');
    const { trade, scenario } = orRefuse(await createWithScenario(sandbox, c.req.valid('json'), c.req.header(SCENARIO_HEADER)));
    await sandbox.store.commit();
    if (scenario) c.header(SCENARIO_HEADER, scenario.name);
    return c.json(toTrade(trade, 'build', sandbox.publicUrl), 201);
  });

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
