import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ADMIN_ANSWER_COMPONENTS, addMerchantAnswerSchema, scenarioUploadAnswerSchema, signAnswerSchema } from '../admin/admin-answers.js';
import { adminTradeSchema } from '../admin/admin-trade.js';
import { checkCallbackRequestSchema } from '../admin/check-callback-routes.js';
import { advanceSchema } from '../admin/clock-routes.js';
import { signRequestSchema } from '../admin/merchant-routes.js';
import { transitionSchema } from '../admin/trade-routes.js';
import { attemptSchema, callbackEventSchema } from '../store/callback-records.js';
import { checkReportSchema } from '../check-callback/check-report.js';
import { newMerchantSchema } from '../merchants/added-merchants.js';
import { integrationReportSchema } from '../report/report-schema.js';
import { durationSchema } from '../clock/duration-schema.js';
import { jobSchema } from '../store/jobs.js';
import { scenarioSummarySchema } from '../scenarios/describe-scenario.js';
import { scenarioFileSchema } from '../scenarios/scenario.js';
import { buildRequestSchema, createRequestSchema } from '../trades/requests.js';
import { ecomTradeSchema, historyEntrySchema, p2pTradeSchema } from '../trades/trade.js';
import { errorEnvelopeSchema } from './error-envelope.js';
import { NO_BODY_413 } from './error-responses.js';
import { ADVANCE_LIMIT_MS, DURATION_PATTERN, HTTP_URL_NOTE, HTTP_URL_PATTERN, TRANSITION_TARGETS } from './input-checks.js';
import { WORKSPACE_ANSWER_COMPONENTS } from '../workspaces/workspace-operations.js';
import type { Component } from './operation.js';
import { OPERATIONS, type Operation, type OperationAuth, type OperationResponse } from './operations.js';
import { PAGE_OPERATIONS, paymentStatusSchema } from './page-operations.js';

type Json = Record<string, unknown>;
type Meta = Component[1];

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Request bodies: described as zod reads them (io "input"). */
const REQUESTS: Component[] = [
  [createRequestSchema, { id: 'CreateRequest', description: 'Body of POST /api/v1/trades/deposit/create. `customer` and `cusotmer` are two spellings of one field.' }],
  [buildRequestSchema, { id: 'BuildRequest', description: 'Body of POST /api/v1/trades/deposit/build.' }],
  [transitionSchema, { id: 'TransitionRequest' }],
  [advanceSchema, { id: 'AdvanceRequest', description: 'by: a duration such as "500ms", "10s", "5m", "2h", "1d", or a number of milliseconds.' }],
  [checkCallbackRequestSchema, { id: 'CheckCallbackRequest' }],
  [newMerchantSchema, { id: 'NewMerchantRequest', description: 'Every field may be left out and is then generated.' }],
  [signRequestSchema, { id: 'SignRequest' }],
  [
    scenarioFileSchema,
    {
      id: 'ScenarioFile',
      description:
        'Body of PUT /_sandbox/scenarios: a scenario file (docs/scenarios.md; scenarios/schema.json is the same schema for editors). Beyond this schema the sandbox refuses what JSON Schema cannot say, for example: a regular expression RE2 cannot compile, a name a shared scenario has, respond together with timeline, callbacks or answer, a timeline out of time order or with a move the transitions do not allow, a match without a condition, a delay over 5m, retry_after without status 503.',
    },
  ],
];

/** Answers and the shapes they share: described as zod produces them (io "output"). */
const ANSWERS: Component[] = [
  [p2pTradeSchema, { id: 'Trade', description: 'The Trade object of the interface document: exactly these eight keys. The answer of P2P create and of every get.' }],
  [ecomTradeSchema, { id: 'EcomTrade', description: 'The Trade object as ecom create (build) answers it: payment_data has only url.' }],
  [errorEnvelopeSchema, { id: 'ErrorEnvelope', description: 'Every error answer.' }],
  [adminTradeSchema, { id: 'AdminTrade', description: 'A Trade plus what QA needs; allowed lists the states it may move to now.' }],
  [historyEntrySchema, { id: 'HistoryEntry' }],
  [callbackEventSchema, { id: 'CallbackEvent', description: 'One state change of one trade, sent to its callback_url until delivered or failed.' }],
  [attemptSchema, { id: 'Attempt' }],
  [jobSchema, { id: 'Job', description: 'A step the sandbox runs at a sandbox time (due: ms since epoch).' }],
  [scenarioSummarySchema, { id: 'ScenarioSummary' }],
  ...ADMIN_ANSWER_COMPONENTS,
  [checkReportSchema, { id: 'CheckReport', description: 'The result of a callback receiver check.' }],
  [integrationReportSchema, { id: 'IntegrationReport', description: "The merchant's mistakes the sandbox counted, per merchant." }],
  [paymentStatusSchema, { id: 'PaymentStatus', description: "A trade's state as the payment page's script reads it." }],
  ...WORKSPACE_ANSWER_COMPONENTS,
  // Admin answers listed after the workspaces' answer: /openapi.json names its components in this order.
  [addMerchantAnswerSchema, { id: 'AddMerchantAnswer' }],
  [signAnswerSchema, { id: 'SignAnswer' }],
  [scenarioUploadAnswerSchema, { id: 'ScenarioUploadAnswer' }],
];

const REF = (id: string) => `#/components/schemas/${id}`;

/**
 * A duration (durationSchema, also once refined or given metadata, which makes a copy of it with
 * the same input): parsed by a transform, which JSON Schema cannot describe.
 */
const isDuration = (schema: unknown): boolean =>
  schema === durationSchema || (schema instanceof z.ZodPipe && schema._zod.def.in === durationSchema._zod.def.in && schema._zod.def.out === durationSchema._zod.def.out);

/** Durations: what comes in (the pattern of what parseDuration accepts, or milliseconds) and what goes out. */
function durations(io: 'input' | 'output') {
  return (ctx: { zodSchema: unknown; jsonSchema: Json }) => {
    if (!isDuration(ctx.zodSchema)) return;
    for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
    Object.assign(
      ctx.jsonSchema,
      io === 'output'
        ? { type: 'number', minimum: 0, description: 'milliseconds' }
        : {
            anyOf: [
              { type: 'string', pattern: DURATION_PATTERN, description: 'a duration such as "500ms", "10s", "5m", "2h" or "1d" (the units of the ms package, in any case)' },
              { type: 'number', minimum: 0, description: 'milliseconds' },
            ],
          },
    );
  };
}

/** JSON Schema keywords added to the string branch and the number branch of a property, and its description. */
interface Checks {
  string?: Json;
  number?: Json;
  description?: string;
}

const UUID: Checks = { string: { format: 'uuid' } };
const HTTP_URL: Checks = { string: { format: 'uri', pattern: HTTP_URL_PATTERN }, description: HTTP_URL_NOTE };

/**
 * What the routes check beyond what zod says in JSON Schema (formats zod checks more loosely or
 * not at all, a refine, a check in the handler), per property of a component
 * (src/openapi/input-checks.ts).
 */
const CHECKS: Record<string, Record<string, Checks>> = {
  Trade: { id: UUID, merchant: UUID },
  EcomTrade: { id: UUID, merchant: UUID },
  AdminTrade: { id: UUID, merchant: UUID },
  CreateRequest: { merchant: UUID, callback_url: HTTP_URL, return_url: HTTP_URL },
  BuildRequest: { merchant: UUID, callback_url: HTTP_URL, return_url: HTTP_URL },
  TransitionRequest: {
    state: {
      string: { enum: [...TRANSITION_TARGETS] },
      description: 'The state to move the trade to. created and ecom are trade states too, but no trade moves to them (409).',
    },
  },
  AdvanceRequest: { by: { number: { maximum: ADVANCE_LIMIT_MS }, description: 'How far to move the clock: at most 10 years (3650d); a longer duration is a 422.' } },
  CheckCallbackRequest: { url: HTTP_URL },
};

function addChecks(schemas: Record<string, Json>): void {
  for (const [id, fields] of Object.entries(CHECKS)) {
    if (!schemas[id]) continue; // in the other set (requests or answers)
    const properties = (schemas[id]['properties'] ?? {}) as Record<string, Json>;
    for (const [name, checks] of Object.entries(fields)) {
      const property = properties[name];
      if (!property) throw new Error(`openapi: ${id} has no property ${name}`);
      const branches = property['anyOf'] ? (property['anyOf'] as Json[]) : [property];
      for (const type of ['string', 'number'] as const) {
        const keywords = checks[type];
        if (!keywords) continue;
        const typed = branches.filter((branch) => branch['type'] === type);
        if (typed.length === 0) throw new Error(`openapi: ${id}.${name} has no ${type} branch`);
        for (const branch of typed) Object.assign(branch, keywords);
      }
      if (checks.description) property['description'] = checks.description;
    }
  }
}

function componentSchemas(entries: Component[], io: 'input' | 'output'): Record<string, Json> {
  const registry = z.registry<Meta>();
  for (const [schema, meta] of entries) registry.add(schema, meta);
  const { schemas } = z.toJSONSchema(registry, { io, uri: REF, unrepresentable: 'any', metadata: registry, override: durations(io) }) as { schemas: Record<string, Json> };
  for (const schema of Object.values(schemas)) {
    delete schema['$schema'];
    delete schema['$id'];
  }
  addChecks(schemas);
  return schemas;
}

function idOf(schema: z.ZodType): string {
  const entry = [...REQUESTS, ...ANSWERS].find(([candidate]) => candidate === schema);
  if (!entry) throw new Error('openapi: a schema in the route table is not registered in openapi-document.ts');
  return entry[1].id;
}

const SECURITY: Record<OperationAuth, Array<Record<string, string[]>>> = {
  'x-auth': [{ XAuth: [] }],
  'x-token': [{ XToken: [] }],
  // The admin token is required only when the sandbox runs with --admin-token.
  admin: [{ AdminToken: [] }, {}],
  open: [{}, { AdminToken: [] }],
};

function parameters(operation: Operation): Json[] {
  const out: Json[] = [];
  for (const [name, description] of Object.entries(operation.pathParams ?? {})) {
    const schema = operation.uuidParams?.includes(name) ? { type: 'string', format: 'uuid' } : { type: 'string' };
    out.push({ name, in: 'path', required: true, description, schema });
  }
  if (operation.query) {
    for (const [name, field] of Object.entries(operation.query.shape)) {
      const schema = inline(field as z.ZodType);
      if (!operation.queryAllowsEmpty) {
        out.push({ name, in: 'query', required: false, schema });
        continue;
      }
      out.push({ name, in: 'query', required: false, description: EMPTY_QUERY, allowEmptyValue: true, schema: admitEmpty(schema) });
    }
  }
  for (const [name, description] of Object.entries(operation.requestHeaders ?? {})) out.push({ name, in: 'header', required: false, description, schema: { type: 'string' } });
  return out;
}

const EMPTY_QUERY = 'Sent empty (`?state=`), the parameter counts as absent: no filter, or the default.';

/**
 * A query parameter's schema that also admits the empty value the route takes as absent
 * (allowEmptyValue alone is deprecated in OpenAPI 3.1 and leaves `""` outside an enum).
 */
function admitEmpty(schema: Json): Json {
  if (schema['type'] === 'string' && schema['enum'] === undefined) return schema;
  if (Array.isArray(schema['enum'])) return { ...schema, enum: [...(schema['enum'] as unknown[]), ''] };
  const { default: fallback, ...rest } = schema;
  return { anyOf: [rest, { type: 'string', const: '' }], ...(fallback !== undefined ? { default: fallback } : {}) };
}

/** A zod schema as an inline JSON Schema (as zod reads it). */
function inline(schema: z.ZodType): Json {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
  delete json['$schema'];
  return json;
}

const json = (id: string) => ({ 'application/json': { schema: { $ref: REF(id) } } });

/**
 * Request bodies are listed under concrete media types only: a client sends a listed type as it
 * is written, and `application/*+json` is a range, not a type. src/http/body.ts also reads any
 * application/<name>+json type as JSON, which the note says.
 */
const JSON_REQUEST_NOTE = 'Sent as application/json, or as any application/<name>+json type (for example application/vnd.api+json), with or without a charset; other types are a 422.';
const ANY_TYPE_JSON_NOTE = 'JSON, read as JSON whatever the Content-Type (application/json, text/plain, or the form type curl -d sends); no body at all counts as {}.';
const YAML_REQUEST_NOTE =
  'A scenario file in YAML (UTF-8), read as YAML whatever the Content-Type (text/yaml, text/plain, or the form type curl --data-binary sends work too); JSON, being YAML, is read too.';

function responseContent(response: OperationResponse): Json {
  if (response.schema) return { content: json(idOf(response.schema)) };
  if (response.content) {
    const schema = response.content.mediaType === 'application/json' ? { type: 'object' } : { type: 'string' };
    return { content: { [response.content.mediaType]: { schema: response.content.description ? { ...schema, description: response.content.description } : schema } } };
  }
  return {};
}

function requestBody(operation: Operation): Json {
  if (operation.body) {
    return { requestBody: { required: true, description: operation.anyContentType ? ANY_TYPE_JSON_NOTE : JSON_REQUEST_NOTE, content: json(idOf(operation.body)) } };
  }
  if (operation.yaml) return { requestBody: { required: true, description: YAML_REQUEST_NOTE, content: { 'application/yaml': { schema: { $ref: REF(idOf(operation.yaml)) } } } } };
  if (operation.form) return { requestBody: { required: false, content: { 'application/x-www-form-urlencoded': { schema: inline(operation.form) } } } };
  return {};
}

/** The answers of an operation: its table's, and the 413 every route that takes no body may answer. */
function responsesOf(operation: Operation): Record<number, OperationResponse> {
  const takesBody = operation.body !== undefined || operation.form !== undefined || operation.yaml !== undefined;
  return takesBody || operation.responses[413] ? operation.responses : { ...operation.responses, 413: NO_BODY_413 };
}

function operationObject(operation: Operation): Json {
  const params = parameters(operation);
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    security: SECURITY[operation.auth],
    ...(params.length > 0 ? { parameters: params } : {}),
    ...requestBody(operation),
    responses: Object.fromEntries(
      Object.entries(responsesOf(operation)).map(([status, response]) => [
        status,
        {
          description: response.description,
          ...(response.headers ? { headers: Object.fromEntries(Object.entries(response.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }])) } : {}),
          ...responseContent(response),
          ...(response.links ? { links: response.links } : {}),
        },
      ]),
    ),
  };
}

export interface OpenApiOptions {
  /** The base URL listed under `servers` (default http://127.0.0.1:4242). */
  serverUrl?: string;
}

/**
 * The OpenAPI 3.1 document of the provider's three endpoints and the admin API, built from
 * the zod schemas the routes validate with (request bodies as zod reads them, answers as
 * they are produced) and the route table in operations.ts.
 */
export function openApiDocument(options: OpenApiOptions = {}): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const operation of [...OPERATIONS, ...PAGE_OPERATIONS]) {
    const entry = paths[operation.path] ?? {};
    entry[operation.method] = operationObject(operation);
    paths[operation.path] = entry;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'deposit-sandbox',
      version: VERSION,
      description:
        "A local sandbox of the Deposit Trade Service: the provider's three endpoints (tag provider), and the sandbox's own admin API under /_sandbox (tag sandbox). Error answers share one envelope. A path listed here answers a method it does not list with 405 (code method_not_allowed) and an Allow header naming the methods it takes; an unknown path is a 404 (code not_found).",
    },
    servers: [{ url: options.serverUrl ?? 'http://127.0.0.1:4242' }],
    tags: [
      { name: 'provider', description: 'The endpoints of the interface document, as the live service has them.' },
      { name: 'sandbox', description: "The sandbox's admin API. With --admin-token, every route but health requires `Authorization: Bearer <token>`." },
      { name: 'pages', description: 'What a browser opens: the hosted payment page and its result page, the dashboard, and this document.' },
    ],
    paths,
    components: {
      schemas: { ...componentSchemas(REQUESTS, 'input'), ...componentSchemas(ANSWERS, 'output') },
      securitySchemes: {
        XAuth: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Auth',
          description: "Create endpoints. The merchant's token, or the hex HMAC-SHA256 of the string to sign keyed with its secret (which ones count depends on --auth).",
        },
        XToken: { type: 'apiKey', in: 'header', name: 'X-Token', description: 'Get endpoint. The merchant\'s token, or the hex HMAC-SHA256 of "merchant::uuid".' },
        AdminToken: { type: 'http', scheme: 'bearer', description: 'The --admin-token the sandbox was started with; not needed when it has none.' },
      },
    },
  };
}
