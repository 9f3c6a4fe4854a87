import { Hono, type MiddlewareHandler } from 'hono';
import { authenticate } from '../auth/authenticate.js';
import { errors } from '../http/errors.js';
import type { SandboxEnv } from '../http/sandbox-env.js';
import { buildRequestSchema, createRequestSchema, LIMITS } from '../trades/requests.js';
import { createWithScenario } from '../scenarios/create-with-scenario.js';
import { SCENARIO_HEADER } from '../scenarios/scenario.js';
import { findTrade } from '../trades/service.js';
import { toTrade } from '../trades/trade.js';
import { JSON_BODY, jsonBody } from '../http/body.js';
import { orRefuse } from '../http/refusal-error.js';
import { validate } from '../http/validation.js';
import { loseAnswer } from '../http/lose-answer.js';

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

  // Create (P2P) and build (ecom) differ only in the body they take and the view they answer.
  for (const [endpoint, schema] of [
    ['create', createRequestSchema],
    ['build', buildRequestSchema],
  ] as const) {
    app.post(`/deposit/${endpoint}`, body, authenticateBody(endpoint), validate('json', schema), async (c) => {
      const sandbox = c.get('sandbox');
      const { trade, scenario, answer } = orRefuse(await createWithScenario(sandbox, c.req.valid('json'), c.req.header(SCENARIO_HEADER)));
      await sandbox.store.commit();
      if (scenario) c.set('scenario', scenario.name);
      // Scenario faults after the save: no answer at all, or a late one (src/scenarios/scenario.ts, answer).
      if (answer?.lost) return loseAnswer(c);
      if (answer?.delay) await sandbox.scenarios.wait(answer.delay);
      if (scenario) c.header(SCENARIO_HEADER, scenario.name);
      return c.json(toTrade(trade, endpoint, sandbox.publicUrl), 201);
    });
  }

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
    return c.body(sandbox.tradeJson.get(trade, sandbox.publicUrl), 200, { 'Content-Type': 'application/json' });
  });

  return app;
}
