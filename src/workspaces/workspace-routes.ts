import type { HttpBindings } from '@hono/node-server';
import { createRoute } from '@hono/zod-openapi';
import { type Context, Hono, type MiddlewareHandler, type Next } from 'hono';
import { matchedRoutes } from 'hono/route';
import { assertAdminAccess, requireAdminToken, requireSandboxAdmin } from '../http/admin-guard.js';
import { SandboxError } from '../http/errors.js';
import { ResourceApp } from '../http/resource-app.js';
import type { SandboxEnv } from '../http/sandbox-env.js';
import { ADMIN_401, answer } from '../openapi/error-responses.js';
import { named } from '../openapi/schema-name.js';
import { SECURITY } from '../openapi/security.js';
import { SCENARIO_HEADER } from '../scenarios/scenario.js';
import type { SandboxOptions } from '../config/options.js';
import { workspacesAnswerSchema } from './workspace-answers.js';
import type { WorkspaceRegistry } from './workspace-registry.js';
import { workspaceNameProblem } from './workspace-name.js';

/**
 * The routes of a workspace's own, mounted by the app at `/w/:workspace` after the guards
 * (CORS, cross-site) and before the sandbox's routes (src/app.ts):
 * - `DELETE /w/:workspace/_sandbox` removes the workspace, an ordinary route behind the admin
 *   token, answered without opening the workspace;
 * - every other request gets the workspace as its sandbox (`c.get('sandbox')`), the name being
 *   the route parameter `workspace`, decoded once by the router.
 */
export function workspaceRoutes(options: SandboxOptions, registry: WorkspaceRegistry) {
  const app = new Hono<SandboxEnv>();
  const admin = requireAdminToken(options.adminToken);
  const remove = async (c: Context<SandboxEnv>) => c.json({ status: 'deleted', workspace: await removeWorkspace(registry, c.req.param('workspace') ?? '') });
  app.delete('/_sandbox', admin, remove);
  app.delete('/_sandbox/', admin, remove);
  app.use(selectWorkspace(registry, options.adminToken));
  return app;
}

/**
 * Sets the request's sandbox to the workspace of its `workspace` route parameter. A workspace
 * already open costs a map lookup and no promise; one that is not open is opened (loaded, or
 * created on first use). A workspace that does not exist yet is kept only for a request a route
 * accepts: the guards before this (host, CORS, cross-site) have passed; here an unknown route
 * (404) and a request without the admin token on an admin route (401) are refused before it is
 * made; and a request refused by its route (a wrong X-Auth, an unknown trade) runs in it on
 * trial, the registry dropping it with the answer (WorkspaceRegistry.enter). So junk never
 * creates a workspace nor uses up --max-workspaces.
 */
function selectWorkspace(registry: WorkspaceRegistry, adminToken: string | undefined): MiddlewareHandler<SandboxEnv> {
  return (c, next) => {
    const name = c.req.param('workspace') ?? '';
    const ready = registry.ready(name);
    if (ready === undefined) return open(c, next, registry, adminToken, name);
    c.set('sandbox', ready);
    c.set('base', ready.basePath);
    return next();
  };
}

async function open(c: Context<SandboxEnv>, next: Next, registry: WorkspaceRegistry, adminToken: string | undefined, name: string): Promise<Response | undefined> {
  const problem = workspaceNameProblem(name);
  if (problem !== undefined) throw invalidName(problem);
  if (!registry.has(name)) {
    const routes = matchedRoutes(c);
    // Only middleware (method ALL) matched: no route answers this path, so nothing is created.
    if (!routes.some((route) => route.method !== 'ALL')) return c.notFound();
    // The admin guard of the route that would answer, run before the workspace exists.
    if (routes.some((route) => route.handler === requireSandboxAdmin)) assertAdminAccess(c, adminToken);
  }
  const opened = await registry.enter(name).catch((error: unknown) => {
    throw new SandboxError(503, 'workspace_unavailable', `Workspace ${JSON.stringify(name)} cannot be loaded: ${(error as Error).message}`);
  });
  if (!opened.ok) {
    if (opened.reason === 'invalid_name') throw invalidName(opened.message);
    if (opened.reason === 'limit') throw new SandboxError(429, 'workspace_limit', opened.message, { details: [{ field: '--max-workspaces', message: 'limit reached' }] });
    if (opened.reason === 'case_twin') throw new SandboxError(409, 'workspace_name_taken', opened.message);
    throw new SandboxError(503, 'shutting_down', opened.message);
  }
  c.set('sandbox', opened.sandbox);
  c.set('base', opened.sandbox.basePath);
  // The answer, an error already rendered by the app's onError, tells the registry whether a new workspace stays.
  let status = 500;
  try {
    await next();
    status = c.res.status;
  } finally {
    opened.leave({ status, scenario: c.res.headers.has(SCENARIO_HEADER) });
  }
  return undefined;
}

named('WorkspacesAnswer', workspacesAnswerSchema);

const listWorkspaces = createRoute({
  method: 'get',
  path: '/_sandbox/workspaces',
  operationId: 'listWorkspaces',
  tags: ['sandbox'],
  summary: 'The workspaces of this server (default first)',
  description: 'A workspace is an isolated sandbox under the path prefix /w/{name}, created on first use; DELETE /w/{name}/_sandbox removes one.',
  security: SECURITY.admin,
  middleware: [requireSandboxAdmin],
  responses: { 200: answer('Each workspace with its trades, pending steps, clock and last use.', workspacesAnswerSchema), 401: ADMIN_401 },
});

/**
 * The routes of the server as a whole (`c.get('server')`), on the unprefixed paths only (under a
 * prefix they are unknown routes, as a workspace has no such routes): `GET /_sandbox/workspaces`
 * lists the workspaces; `DELETE /_sandbox` explains that default stays. On these paths the
 * request's sandbox is default, whose admin token is the server's.
 */
export function serverWorkspaceRoutes() {
  const app = new ResourceApp().openapi(listWorkspaces, async (c) => {
    const server = c.get('server');
    return c.json({ workspaces: await server.workspaces.list(), limit: server.options.maxWorkspaces }, 200);
  });
  const keep = () => {
    throw new SandboxError(
      409,
      'default_workspace',
      'The workspace default (the unprefixed paths) cannot be removed. Empty it with POST /_sandbox/reset, or remove a named one with DELETE /w/<name>/_sandbox.',
    );
  };
  app.delete('/_sandbox', requireSandboxAdmin, keep);
  return app;
}

async function removeWorkspace(registry: WorkspaceRegistry, name: string) {
  const result = await registry.delete(name);
  if (result.ok) return result.removed;
  if (result.reason === 'permanent') throw new SandboxError(409, 'default_workspace', result.message);
  if (workspaceNameProblem(name) !== undefined) throw invalidName(result.message);
  throw new SandboxError(404, 'workspace_not_found', result.message);
}

/**
 * `/w/` (or `/%77/`, which the router reads as `/w/`) and then a dot segment, as the URL parser
 * reads one: `.` or `..` with any of its dots written `%2e` or `%2E`. An absolute-form target
 * (`POST http://host/w/...`) is matched after its origin.
 */
const DOT_SEGMENT_NAME = /^(?:https?:\/\/[^/?#]*)?\/(?:w|%77)\/((?:\.|%2[eE]){1,2})(?:[/?#]|$)/;

/**
 * Refuses a request whose workspace name is a dot segment, before any route sees it. The router
 * never sees that name: the Request's URL is resolved as a browser resolves it, so `/w/%2e%2e/api/...`
 * arrives as `/api/...` (a request of the default workspace) and `/w/%2e/x` as `/w/x`. The
 * request target as the client sent it is the one place the segment still shows: the Node
 * request's `url` in @hono/node-server's bindings (`c.env.incoming`). Under `app.request()` there
 * is no Node request, and a Request made from a URL string was resolved before the app got it.
 */
export const refuseDotSegmentName: MiddlewareHandler = (c, next) => {
  const target = (c.env as Partial<HttpBindings> | undefined)?.incoming?.url;
  const dots = target === undefined ? undefined : DOT_SEGMENT_NAME.exec(target)?.[1];
  if (dots !== undefined) throw invalidName(workspaceNameProblem(decodeURIComponent(dots)) ?? '');
  return next();
};

/** The 404 of a path whose workspace name is not allowed. */
export function invalidName(message: string): SandboxError {
  return new SandboxError(404, 'invalid_workspace_name', message, { details: [{ field: 'path', message: 'the segment after /w/ must be 1 to 64 of A-Z a-z 0-9 _ . -' }] });
}
