import { createRoute } from '@hono/zod-openapi';
import { anotherMerchantsSecret } from '../callback-fuzzer/another-merchant.js';
import { z } from 'zod';
import { buildChecklist } from '../go-live/checklist.js';
import { goLiveChecklistSchema } from '../go-live/go-live-schema.js';
import { requireSandboxAdmin } from '../http/admin-guard.js';
import { ADMIN_BODY_LIMIT } from '../http/body.js';
import { jsonRequest } from '../http/request-body.js';
import { ResourceApp } from '../http/resource-app.js';
import type { Merchant } from '../merchants/fixtures.js';
import { ADMIN_401, ADMIN_TOO_LARGE, answer, BODY_422, error } from '../openapi/error-responses.js';
import { named } from '../openapi/schema-name.js';
import { SECURITY } from '../openapi/security.js';
import { fixturesMerchant, fixturesMerchantField } from './fixtures-merchant.js';
import { settledReport } from './settled-report.js';
import type { ReportedWorkspaces } from '../report/server-report.js';
import type { Sandbox } from '../sandbox.js';
import { isHttpUrl, LIMITS } from '../trades/requests.js';

named('GoLiveChecklist', goLiveChecklistSchema, "One merchant's go-live checklist: each provider behaviour met, not met or wrong.");

const url = (what: string, example: string) =>
  z
    .string({ error: `${what} must be an absolute http:// or https:// URL, e.g. "${example}"` })
    .max(LIMITS.maxUrlLength, `${what} must be at most ${LIMITS.maxUrlLength} characters`)
    .refine(isHttpUrl, `${what} must be an absolute http:// or https:// URL, e.g. "${example}"`);

/** Body of POST /_sandbox/go-live. */
const goLiveRequestSchema = named(
  'GoLiveRequest',
  z.object(
    {
      /** The merchant's callback_url: checked (five callbacks) and fuzzed. */
      receiver: url('receiver', 'http://127.0.0.1:3000/deposit-callback'),
      /** Its balance probe (GET <url>?order=<order>), read by the fuzzer after each schedule. */
      probe: url('probe', 'http://127.0.0.1:3000/probe').optional(),
      merchant: fixturesMerchantField,
      seed: z
        .number({ error: 'seed must be a whole number from 0 to 2147483647' })
        .int('seed must be a whole number')
        .min(0)
        .max(2 ** 31 - 1)
        .optional(),
      runs: z.number({ error: 'runs must be a whole number from 1 to 1000' }).int('runs must be a whole number').min(1).max(1_000).optional(),
    },
    { error: 'must be a JSON object such as {"receiver": "http://127.0.0.1:3000/deposit-callback", "probe": "http://127.0.0.1:3000/probe"}' },
  ),
);

const DESCRIPTION =
  'One row per provider behaviour (the integration coverage rows, an older state after a newer one, credits read from a balance probe), each met, not_met or wrong, with the one command or order prefix that exercises a row not met. The coverage is read as GET /_sandbox/report has it (at the root, over every workspace).';

const read = createRoute({
  method: 'get',
  path: '/',
  operationId: 'goLiveChecklist',
  tags: ['sandbox'],
  summary: "A merchant's go-live checklist, from the coverage its tests reached",
  description: `${DESCRIPTION} No receiver is checked: POST does that.`,
  security: SECURITY.admin,
  request: { query: z.object({ merchant: fixturesMerchantField.meta({ description: 'The merchant; default: the first with coverage, else the first of the fixtures.' }) }) },
  responses: {
    200: answer('The checklist (ready is true when every row is met).', goLiveChecklistSchema),
    401: ADMIN_401,
    422: error('merchant is not in the fixtures.'),
  },
});

const run = createRoute({
  method: 'post',
  path: '/',
  operationId: 'goLiveCheckReceiver',
  tags: ['sandbox'],
  summary: "A merchant's go-live checklist, with its receiver checked and fuzzed",
  description: `${DESCRIPTION} Before, sends the receiver the five callbacks of POST /_sandbox/check-callback, then fuzzes it with seeded delivery schedules (as deposit-sandbox check-callback --seed does; with probe, credits are read after each), signed as this sandbox signs callbacks; what they show marks the callback rows. Nothing is stored. Takes as long as the receiver does.`,
  security: SECURITY.admin,
  request: { body: jsonRequest(goLiveRequestSchema, ADMIN_BODY_LIMIT) },
  responses: {
    200: answer('The checklist (ready is true when every row is met).', goLiveChecklistSchema),
    401: ADMIN_401,
    413: ADMIN_TOO_LARGE,
    422: error(`${BODY_422} Also: a merchant that is not in the fixtures.`),
  },
});

/** The checklist's coverage side: the report as GET /_sandbox/report answers it, its merged coverage at a server's root. */
async function coverageOf(sandbox: Sandbox, server: { root: Sandbox; workspaces: ReportedWorkspaces }) {
  const report = await settledReport(sandbox, server);
  return report.coverage_merged ?? report.coverage;
}

/** The merchant asked for, or the first with coverage, or the first of the fixtures. */
const pickMerchant = (sandbox: Sandbox, asked: string | undefined, covered: readonly { merchant: string }[]) =>
  fixturesMerchant(sandbox, asked, () => sandbox.merchants.get(covered[0]?.merchant ?? '') ?? sandbox.merchants.list()[0]);

/**
 * GET and POST /_sandbox/go-live: the go-live checklist of one merchant (src/go-live). GET reads
 * the coverage only; POST checks and fuzzes the receiver first (src/go-live/check-receiver.ts)
 * with the merchant's secret from the fixtures, under this sandbox's provider profile.
 */
export function goLiveRoutes() {
  const app = new ResourceApp();
  app.use(requireSandboxAdmin);
  return app
    .openapi(read, async (c) => {
      const sandbox = c.get('sandbox');
      const coverage = await coverageOf(sandbox, c.get('server'));
      const merchant = pickMerchant(sandbox, c.req.valid('query').merchant, coverage);
      return c.json(checklistFor(sandbox, merchant, coverage, undefined), 200);
    })
    .openapi(run, async (c) => {
      const sandbox = c.get('sandbox');
      const body = c.req.valid('json');
      const before = await coverageOf(sandbox, c.get('server'));
      const merchant = pickMerchant(sandbox, body.merchant, before);
      // The receiver check and the fuzzer (fast-check) load when a check is asked for, not at every start of the server.
      const { checkReceiver } = await import('../go-live/check-receiver.js');
      const findings = await checkReceiver({
        url: body.receiver,
        probe: body.probe,
        merchant,
        otherSecret: anotherMerchantsSecret(sandbox.merchants.list(), merchant.id, merchant.secret),
        profile: sandbox.profile,
        publicUrl: sandbox.publicUrl,
        timeoutMs: sandbox.options.callbackTimeout,
        seed: body.seed ?? Math.floor(Math.random() * 2 ** 31),
        runs: body.runs,
        now: () => sandbox.clock.now(),
      });
      return c.json(checklistFor(sandbox, merchant, before, findings), 200);
    });
}

function checklistFor(sandbox: Sandbox, merchant: Merchant, coverage: Awaited<ReturnType<typeof coverageOf>>, receiver: Parameters<typeof buildChecklist>[0]['receiver']) {
  const id = merchant.id.toLowerCase();
  return buildChecklist({
    merchant: merchant.id,
    name: merchant.name,
    coverage: coverage.find((m) => m.merchant.toLowerCase() === id),
    otherMerchants: coverage.map((m) => m.merchant).filter((m) => m.toLowerCase() !== id),
    sandboxProbe: sandbox.credits.on,
    receiver,
  });
}
