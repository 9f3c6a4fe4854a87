import { Hono } from 'hono';
import { noBody } from './http/body.js';
import { recordSession } from './http/record-session.js';
import { errors, SandboxError } from './http/errors.js';
import { methodNotAllowed } from './http/method-not-allowed.js';
import { WriteFailedError } from './store/write-failed-error.js';
import { providerErrorBody } from './api/provider-error-body.js';
import { renderError } from './http/render-error.js';
import { describeError } from './log/logger.js';
import { openApiDocument } from './openapi/openapi-document.js';
import { routeTable } from './openapi/route-table.js';
import { corsPolicy } from './security/cors-policy.js';
import { countCreates } from './report/count-creates.js';
import { countReads } from './report/count-reads.js';
import { countRefusal } from './report/count-refusal.js';
import { crossSiteGuard } from './security/cross-site-guard.js';
import { hostGuard } from './security/host-guard.js';
import type { Server } from './server/server.js';
import { type SandboxEnv, sandboxOf } from './http/sandbox-env.js';
import { WorkspaceRemovedError } from './workspaces/workspace-adapter.js';
import { invalidName, refuseDotSegmentName, serverWorkspaceRoutes, workspaceRoutes } from './workspaces/workspace-routes.js';
import { workspaceNameProblem } from './workspaces/workspace-name.js';

const ROUTES =
  'POST /api/v1/trades/deposit/create, POST /api/v1/trades/deposit/build, GET /api/v1/trades/:merchant/:uuid, the payment page GET /pay/:id and its files under /assets, the dashboard GET /_sandbox/, the sandbox routes under /_sandbox, and their description GET /openapi.json';

export interface AppOptions {
  /** Count the merchant's mistakes for the integration report (default true; off only for the bench's comparison). */
  countMistakes?: boolean;
}

/**
 * Builds the HTTP app over a server. It never listens: the CLI and startSandbox() do. One app
 * serves all the server's workspaces: the sandbox's routes are mounted twice, at `/` (the
 * workspace default) and at `/w/:workspace`, where the router decodes the workspace name once as
 * a route parameter and src/workspaces/workspace-routes.ts sets that workspace as the request's
 * sandbox (`c.get('sandbox')`, src/http/sandbox-env.ts), after the guards.
 */
export function createApp(server: Server, options: AppOptions = {}) {
  const app = new Hono<SandboxEnv>();
  const counting = options.countMistakes !== false;
  const sandbox = server.root;
  // Security and limits (README): DNS-rebinding host check on every request.
  app.use(hostGuard(server));
  // Every request starts in the default sandbox; the /w/:workspace mount moves it to its workspace.
  app.use((c, next) => {
    c.set('server', server);
    c.set('sandbox', sandbox);
    c.set('base', '');
    return next();
  });
  // `/w/%2e%2e/...` names no workspace; resolved, it would be a path of the default one.
  app.use(refuseDotSegmentName);
  app.route('/', sandboxRoutes(counting, serverWorkspaceRoutes()));
  app.route('/w/:workspace', sandboxRoutes(counting, workspaceRoutes(server.options, server.workspaces)));
  // A path some route serves, with a method none of them takes: 405 with Allow, not 404.
  const wrongMethod = methodNotAllowed(app);
  app.notFound((c) => {
    // `/w//...`: the router's :workspace takes no empty segment, so the path matched no mount.
    if (c.req.path.startsWith('/w//')) throw invalidName(workspaceNameProblem('') ?? '');
    const refused = wrongMethod(c.req.method, c.req.path);
    if (refused) throw refused;
    throw new SandboxError(404, 'not_found', `No route matches this method and path. The sandbox serves ${ROUTES}.`);
  });

  app.onError(
    renderError({
      // A write refused because the request's workspace was removed under it (src/workspaces/workspace-adapter.ts).
      translate: (error) => (error instanceof WriteFailedError && error.cause instanceof WorkspaceRemovedError ? errors.workspaceRemoved(error.cause.workspace) : undefined),
      ...(counting ? { onRefusal: (c, error) => countRefusal((sandboxOf(c) ?? sandbox).report, c, error) } : {}),
      shape: providerErrorBody,
      onBug: (c, error) => (sandboxOf(c) ?? sandbox).services.logger?.warn(`${c.req.method} ${c.req.path} failed: ${describeError(error)}`),
    }),
  );

  return app;
}

/**
 * The routes of one sandbox, mounted once per prefix. The guards come first (CORS, cross-site
 * writes), then `select` (the server's own routes at `/`; at `/w/:workspace` the removal of a
 * workspace and the choice of the request's sandbox), then the resources.
 */
function sandboxRoutes(counting: boolean, select: Hono<SandboxEnv>) {
  const app = new Hono<SandboxEnv>();
  app.use('/openapi.json', corsPolicy('public'));
  app.use('/api/*', corsPolicy('provider'));
  app.use('/_sandbox/*', corsPolicy('admin'), crossSiteGuard);
  app.use('/pay/*', crossSiteGuard);
  // A route that takes no body refuses one past a small bound before it acts (src/http/body.ts).
  app.use(noBody());
  app.route('/', select);
  // The workspace's session: each request of the provider, admin and payment forms, with its answer (src/http/record-session.ts).
  app.use(recordSession);
  // The integration report (src/report): successful creates and reads of a trade here, refusals in onError.
  if (counting) {
    app.post('/api/v1/trades/deposit/create', countCreates);
    app.post('/api/v1/trades/deposit/build', countCreates);
    app.get('/api/v1/trades/:merchant/:uuid', countReads);
  }
  // Every resource, each route declared once; /openapi.json is generated from their declarations.
  app.route('/', sharedRouteTable());
  return app;
}

let table: ReturnType<typeof routeTable> | undefined;

/**
 * The route table, made once for the process and mounted in every app: its routes keep no state
 * of their own (each request finds its sandbox in the context), so every app and mount can take
 * the same handlers, and a new sandbox does not declare every route again.
 */
function sharedRouteTable(): ReturnType<typeof routeTable> {
  table ??= routeTable(openApiDocument);
  return table;
}
