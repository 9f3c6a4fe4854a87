import { readFileSync } from 'node:fs';
import type { RouteConfig } from '@hono/zod-openapi';
import { z } from 'zod';
import { GUARD_403, NO_BODY_413 } from './error-responses.js';
import { addChecks, durations, stateNames } from './input-checks.js';
import { nameOf, namedSchemas, type SchemaName } from './schema-name.js';

type Json = Record<string, unknown>;

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const REF = (id: string) => `#/components/schemas/${id}`;

const isZod = (value: unknown): value is z.ZodType => value instanceof z.ZodType;

/** What zod cannot say itself: durations (parsed by a transform) and state fields (the states, not the name pattern). */
const overrides = (io: 'input' | 'output') => {
  const duration = durations(io);
  return (ctx: { zodSchema: unknown; jsonSchema: Json }) => {
    duration(ctx);
    stateNames(ctx);
  };
};

/** A zod schema as an inline JSON Schema: as zod reads it (io "input", requests) or produces it ("output", answers). */
function inline(schema: z.ZodType, io: 'input' | 'output'): Json {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', override: overrides(io) }) as Json;
  delete json['$schema'];
  return json;
}

/** A schema of a body or an answer: a `$ref` to its component when it is named, else written in place. */
function schemaOf(schema: unknown, io: 'input' | 'output'): unknown {
  if (!isZod(schema)) return schema;
  const name = nameOf(schema);
  return name ? { $ref: REF(name.id) } : inline(schema, io);
}

/** Media types and their schemas, with the zod schemas written as JSON Schema. */
function contentOf(content: Record<string, unknown>, io: 'input' | 'output'): Json {
  return Object.fromEntries(
    Object.entries(content).map(([mediaType, media]) => {
      const { schema, ...rest } = (media ?? {}) as Json;
      return [mediaType, { schema: schemaOf(schema, io), ...rest }];
    }),
  );
}

const EMPTY_QUERY = 'Sent empty (`?state=`), the parameter counts as absent: no filter, or the default.';

/** A query field that takes an empty value as no value (`?state=` is no filter, `?limit=` the default). */
function emptyIsAbsent(field: z.ZodType): boolean {
  const empty = field.safeParse('');
  const absent = field.safeParse(undefined);
  return empty.success && absent.success && JSON.stringify(empty.data) === JSON.stringify(absent.data);
}

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

const shapeOf = (schema: unknown): Record<string, z.ZodType> => (schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : {});

/** The parameters of a route: its path parameters and query (zod objects), then the ones it writes out (headers). */
function parameters(route: RouteConfig): Json[] {
  const out: Json[] = [];
  for (const [name, field] of Object.entries(shapeOf(route.request?.params))) {
    const { description, ...schema } = inline(field, 'input');
    out.push({ name, in: 'path', required: true, ...(description !== undefined ? { description } : {}), schema });
  }
  for (const [name, field] of Object.entries(shapeOf(route.request?.query))) {
    const schema = inline(field, 'input');
    if (emptyIsAbsent(field)) out.push({ name, in: 'query', required: false, description: EMPTY_QUERY, allowEmptyValue: true, schema: admitEmpty(schema) });
    else out.push({ name, in: 'query', required: false, schema });
  }
  out.push(...((route.parameters ?? []) as unknown as Json[]));
  return out;
}

function responses(route: RouteConfig): Json {
  const declared = route.responses as Record<string, Json>;
  // Every route sits behind the browser protections (src/security), and one without a body behind noBody() (src/http/body.ts).
  const all: Record<string, Json> = { ...declared, ...(declared['403'] ? {} : { 403: GUARD_403 }) };
  if (!route.request?.body && !all['413']) all['413'] = NO_BODY_413;
  return Object.fromEntries(
    Object.entries(all).map(([status, response]) => {
      const { description, headers, content, links } = response;
      return [
        status,
        {
          description,
          ...(headers ? { headers } : {}),
          ...(content ? { content: contentOf(content as Json, 'output') } : {}),
          ...(links ? { links } : {}),
        },
      ];
    }),
  );
}

function operationObject(route: RouteConfig): Json {
  const params = parameters(route);
  const body = route.request?.body;
  return {
    operationId: route.operationId,
    tags: route.tags,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    security: route.security,
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(body
      ? {
          requestBody: {
            ...(body.required !== undefined ? { required: body.required } : {}),
            ...(body.description ? { description: body.description } : {}),
            content: contentOf(body.content as Json, 'input'),
          },
        }
      : {}),
    responses: responses(route),
  };
}

/** The named schemas of one io, as /openapi.json's components. */
function componentSchemas(entries: Array<[z.ZodType, SchemaName]>, io: 'input' | 'output'): Record<string, Json> {
  const registry = z.registry<SchemaName>();
  for (const [schema, name] of entries) registry.add(schema, name);
  const { schemas } = z.toJSONSchema(registry, { io, uri: REF, unrepresentable: 'any', metadata: registry, override: overrides(io) }) as { schemas: Record<string, Json> };
  for (const schema of Object.values(schemas)) {
    delete schema['$schema'];
    delete schema['$id'];
  }
  if (schemas['__shared']) throw new Error(`openapi: a schema named in a ${io === 'input' ? 'request body' : 'answer'} is nested in one of the other kind`);
  addChecks(schemas);
  return schemas;
}

/**
 * The components: the named schemas (src/openapi/schema-name.ts), those of request bodies as zod
 * reads them (io "input") and the others, answers and the shapes they share, as zod produces them.
 */
function components(routes: RouteConfig[]): Record<string, Json> {
  const bodies = new Set<unknown>();
  for (const route of routes) for (const media of Object.values(route.request?.body?.content ?? {})) bodies.add((media as Json | undefined)?.['schema']);
  const named = namedSchemas();
  return {
    ...componentSchemas(
      named.filter(([schema]) => bodies.has(schema)),
      'input',
    ),
    ...componentSchemas(
      named.filter(([schema]) => !bodies.has(schema)),
      'output',
    ),
  };
}

export interface DocumentOptions {
  /** The base URL listed under `servers` (default http://127.0.0.1:4242). */
  serverUrl?: string;
}

/**
 * The OpenAPI 3.1 document of `routes`, the declarations of the app's routes (createRoute(),
 * src/openapi/route-table.ts): each route's parameters, body and answers from its zod schemas,
 * written as zod's own JSON Schema (z.toJSONSchema: request bodies as zod reads them, answers as
 * they are produced), the named ones as components; what zod cannot say in JSON Schema (a refine,
 * a check in the handler) added from src/openapi/input-checks.ts.
 */
export function documentFromRoutes(routes: RouteConfig[], options: DocumentOptions = {}): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of routes) {
    const entry = paths[route.path] ?? {};
    entry[route.method] = operationObject(route);
    paths[route.path] = entry;
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
      schemas: components(routes),
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
