import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { adminRoutes } from './admin/routes.js';
import { providerRoutes } from './api/provider.js';
import { errors, SandboxError } from './errors.js';
import { StorageError } from './store/storage-error.js';
import { openApiRoutes } from './openapi/openapi-routes.js';
import { dashboardRoutes } from './pages/dashboard-routes.js';
import { assetRoutes } from './pages/asset-routes.js';
import { paymentRoutes } from './pages/payment-routes.js';
import { corsPolicy } from './security/cors-policy.js';
import { countReads } from './report/count-reads.js';
import { countRefusal } from './report/count-refusal.js';
import { crossSiteGuard } from './security/cross-site-guard.js';
import { hostGuard } from './security/host-guard.js';
import type { Sandbox } from './sandbox.js';
import { type SandboxEnv, sandboxOf } from './workspaces/request-sandbox.js';
import { WorkspaceRemovedError } from './workspaces/workspace-adapter.js';
import { invalidName, serverWorkspaceRoutes, workspaceRoutes } from './workspaces/workspace-routes.js';
import { workspaceNameProblem } from './workspaces/workspace-name.js';

const ROUTES =
  'POST /api/v1/trades/deposit/create, POST /api/v1/trades/deposit/build, GET /api/v1/trades/:merchant/:uuid, the payment page GET /pay/:id and its files under /assets, the dashboard GET /_sandbox/, the sandbox routes under /_sandbox, and their description GET /openapi.json';

export interface AppOptions {
  /** Count the merchant's mistakes for the integration report (default true; off only for the bench's comparison). */
  countMistakes?: boolean;
}

/**
 * Builds the HTTP app over a sandbox. It never listens: the CLI and startSandbox() do. One app
 * serves the sandbox and all its workspaces: the sandbox's routes are mounted twice, at `/` (the
 * default sandbox) and at `/w/:workspace`, where the router decodes the workspace name once as a
 * route parameter and src/workspaces/workspace-routes.ts sets that workspace as the request's
 * sandbox (`c.get('sandbox')`, src/workspaces/request-sandbox.ts), after the guards.
 */
export function createApp(sandbox: Sandbox, options: AppOptions = {}) {
  const app = new Hono<SandboxEnv>();
  const counting = options.countMistakes !== false;
  // Security and limits (README): DNS-rebinding host check on every request.
  app.use(hostGuard(sandbox));
  // Every request starts in the default sandbox; the /w/:workspace mount moves it to its workspace.
  app.use((c, next) => {
    c.set('sandbox', sandbox);
    c.set('base', '');
    return next();
  });
  app.route('/', sandboxRoutes(counting, serverWorkspaceRoutes(sandbox)));
  if (sandbox.workspaces) app.route('/w/:workspace', sandboxRoutes(counting, workspaceRoutes(sandbox, sandbox.workspaces)));
  app.notFound((c) => {
    // `/w//...`: the router's :workspace takes no empty segment, so the path matched no mount.
    if (c.req.path.startsWith('/w//')) throw invalidName(workspaceNameProblem('') ?? '');
    throw new SandboxError(404, 'not_found', `No route matches this method and path. The sandbox serves ${ROUTES}.`);
  });

  app.onError((error, c) => {
    if (error instanceof SandboxError) {
      if (counting) countRefusal((sandboxOf(c) ?? sandbox).report, c, error);
      return c.json(error.toJSON(), error.status as 400, error.headers);
    }
    if (error instanceof StorageError && error.cause instanceof WorkspaceRemovedError) {
      const name = error.cause.workspace;
      const removed = new SandboxError(
        409,
        'workspace_removed',
        `Workspace ${JSON.stringify(name)} was removed (DELETE /w/${name}/_sandbox, or --workspace-ttl) or the sandbox stopped while this request was running: nothing it changed was saved, and a workspace created since under that name was not touched. Send the request again to make it in the workspace as it is now.`,
      );
      return c.json(removed.toJSON(), 409);
    }
    if (error instanceof StorageError) {
      const admin = c.req.path.startsWith('/_sandbox') || c.req.path.includes('/_sandbox/');
      const refused = errors.storage(error, admin);
      return c.json(refused.toJSON(), refused.status as 503, refused.headers);
    }
    if (error instanceof HTTPException) {
      const wrapped = new SandboxError(error.status, error.status === 413 ? 'body_too_large' : 'bad_request', error.message || 'The request could not be read.');
      return c.json(wrapped.toJSON(), error.status);
    }
    console.error(error);
    const internal = new SandboxError(500, 'internal_error', 'The sandbox failed while handling this request; this is a sandbox bug, not your mistake. The details are in the sandbox log.');
    return c.json(internal.toJSON(), 500);
  });

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
  app.route('/', select);
  // The integration report (src/report): successful reads of a trade here, refusals in onError.
  if (counting) app.get('/api/v1/trades/:merchant/:uuid', countReads);
  app.route('/api/v1/trades', providerRoutes());
  app.route('/pay', paymentRoutes());
  app.route('/assets', assetRoutes());
  // The dashboard shell owns exactly GET /_sandbox/ (and its assets); mounted before the admin API.
  app.get('/_sandbox', (c) => c.redirect(`${c.get('base')}/_sandbox/`, 301));
  app.route('/_sandbox/', dashboardRoutes());
  app.route('/_sandbox', adminRoutes());
  app.route('/openapi.json', openApiRoutes());
  return app;
}
