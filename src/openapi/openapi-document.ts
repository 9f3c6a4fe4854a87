import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import { serverWorkspaceRoutes } from '../workspaces/workspace-routes.js';
import { type DocumentOptions, documentFromRoutes } from './document-from-routes.js';
import { DEFAULT_PROFILE, loadProfile } from '../profile/load-profile.js';
import { callbackOperation } from './callback-operation.js';
import { addCallbacks } from './profile-document.js';
import { routeTable } from './route-table.js';

/**
 * The OpenAPI 3.1 document of the routes served at the root: the server's own
 * (src/workspaces/workspace-routes.ts) and those of the route table (src/openapi/route-table.ts),
 * generated from their declarations (src/openapi/document-from-routes.ts). GET /openapi.json
 * answers it, with the request's public URL as its server, and the callback of a created trade
 * as the default provider profile sends it.
 */
export function openApiDocument(options: DocumentOptions = {}): Record<string, unknown> {
  const app = new OpenAPIHono().route('/', serverWorkspaceRoutes()).route('/', routeTable(openApiDocument));
  const routes = app.openAPIRegistry.definitions.flatMap((definition): RouteConfig[] => (definition.type === 'route' ? [definition.route] : []));
  const document = documentFromRoutes(routes, options);
  // The callback a created trade gets, as the default profile sends it (profileDocument() puts another profile's).
  addCallbacks(document as { paths: Record<string, Record<string, Record<string, unknown>>> }, callbackOperation(loadProfile(DEFAULT_PROFILE)));
  return document;
}
