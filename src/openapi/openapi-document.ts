import { z } from 'zod';
import { integrationReportSchema } from '../report/report-schema.js';
import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import { adminRoutes } from '../admin/routes.js';
import '../workspaces/workspace-operations.js';
import '../admin/admin-answers.js';
import { documentFromRoutes, type DocumentOptions } from './document-from-routes.js';
import { OPERATIONS, type Operation, type OperationAuth, type OperationResponse } from './operations.js';
import { named } from './schema-name.js';
import { SECURITY } from './security.js';
import { PAGE_OPERATIONS } from './page-operations.js';
import { providerRoutes } from '../api/provider.js';
import { dashboardRoutes } from '../pages/dashboard-routes.js';
import { paymentRoutes } from '../pages/payment-routes.js';

// The shapes of the routes still described by the route tables (operations.ts, page-operations.ts).
named('IntegrationReport', integrationReportSchema, "The merchant's mistakes the sandbox counted, per merchant.");

const SECURITY_OF: Record<OperationAuth, RouteConfig['security']> = { 'x-auth': SECURITY.xAuth, 'x-token': SECURITY.xToken, admin: SECURITY.admin, open: SECURITY.open };

const JSON_REQUEST_NOTE = 'Sent as application/json, or as any application/<name>+json type (for example application/vnd.api+json), with or without a charset; other types are a 422.';
const ANY_TYPE_JSON_NOTE = 'JSON, read as JSON whatever the Content-Type (application/json, text/plain, or the form type curl -d sends); no body at all counts as {}.';
const YAML_REQUEST_NOTE =
  'A scenario file in YAML (UTF-8), read as YAML whatever the Content-Type (text/yaml, text/plain, or the form type curl --data-binary sends work too); JSON, being YAML, is read too.';

function response(answer: OperationResponse): Record<string, unknown> {
  const legacy = answer.content as { mediaType?: string; description?: string } | undefined;
  const content = answer.schema
    ? { 'application/json': { schema: answer.schema } }
    : legacy?.mediaType
      ? { [legacy.mediaType]: { schema: { type: legacy.mediaType === 'application/json' ? 'object' : 'string', ...(legacy.description ? { description: legacy.description } : {}) } } }
      : answer.content;
  return {
    description: answer.description,
    ...(answer.headers ? { headers: Object.fromEntries(Object.entries(answer.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }])) } : {}),
    ...(content ? { content } : {}),
    ...(answer.links ? { links: answer.links } : {}),
  };
}

/** A row of the route tables as the declaration of a route. */
function routeOf(operation: Operation): RouteConfig {
  const params = Object.entries(operation.pathParams ?? {}).map(([name, description]) => [
    name,
    z.string().meta(operation.uuidParams?.includes(name) ? { description, format: 'uuid' } : { description }),
  ]);
  const body = operation.body
    ? { required: true, description: operation.anyContentType ? ANY_TYPE_JSON_NOTE : JSON_REQUEST_NOTE, content: { 'application/json': { schema: operation.body } } }
    : operation.yaml
      ? { required: true, description: YAML_REQUEST_NOTE, content: { 'application/yaml': { schema: operation.yaml } } }
      : operation.form
        ? { required: false, content: { 'application/x-www-form-urlencoded': { schema: operation.form } } }
        : undefined;
  return {
    method: operation.method,
    path: operation.path,
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    security: SECURITY_OF[operation.auth],
    request: {
      ...(params.length > 0 ? { params: z.object(Object.fromEntries(params)) } : {}),
      ...(operation.query ? { query: operation.query } : {}),
      ...(body ? { body } : {}),
    },
    ...(operation.requestHeaders
      ? { parameters: Object.entries(operation.requestHeaders).map(([name, description]) => ({ name, in: 'header' as const, required: false, description, schema: { type: 'string' as const } })) }
      : {}),
    responses: Object.fromEntries(Object.entries(operation.responses).map(([status, answer]) => [status, response(answer)])),
  } as RouteConfig;
}

/**
 * The OpenAPI 3.1 document of the provider's three endpoints, the admin API and the pages, built
 * from the declarations of the routes (src/openapi/document-from-routes.ts).
 */
export function openApiDocument(options: DocumentOptions = {}): Record<string, unknown> {
  const declared = new OpenAPIHono()
    .route('/api/v1/trades', providerRoutes())
    .route('/pay', paymentRoutes())
    .route('/_sandbox/', dashboardRoutes())
    .route('/_sandbox', adminRoutes())
    .openAPIRegistry.definitions.flatMap((definition) => (definition.type === 'route' ? [definition.route] : []));
  const rows = [...OPERATIONS, ...PAGE_OPERATIONS].filter((operation) => !declared.some((route) => route.method === operation.method && route.path === operation.path));
  return documentFromRoutes([...rows.map(routeOf), ...declared], options);
}
