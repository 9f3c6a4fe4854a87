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
import { countCreates } from './report/count-creates.js';
import { countReads } from './report/count-reads.js';
import { countRefusal } from './report/count-refusal.js';
import { crossSiteGuard } from './security/cross-site-guard.js';
import { hostGuard } from './security/host-guard.js';
import type { Sandbox } from './sandbox.js';
import { type SandboxEnv, sandboxOf } from './workspaces/request-sandbox.js';
import { selectWorkspace, serverWorkspaceRoutes, withoutWorkspacePrefix } from './workspaces/workspace-routes.js';

const ROUTES =
  'POST /api/v1/trades/deposit/create, POST /api/v1/trades/deposit/build, GET /api/v1/trades/:merchant/:uuid, the payment page GET /pay/:id and its files under /assets, the dashboard GET /_sandbox/, the sandbox routes under /_sandbox, and their description GET /openapi.json';

export interface AppOptions {
  /** Count the merchant's mistakes for the integration report (default true; off only for the bench's comparison). */
  countMistakes?: boolean;
}

/**
 * Builds the HTTP app over a sandbox. It never listens: the CLI and startSandbox() do. One app
 * serves the sandbox and all its workspaces: the first middleware sets the request's sandbox
 * (`c.get('sandbox')`, src/workspaces/request-sandbox.ts) and every route reads it from there.
 */
export function createApp(sandbox: Sandbox, options: AppOptions = {}) {
  const app = new Hono<SandboxEnv>(sandbox.workspaces ? { getPath: withoutWorkspacePrefix } : {});

  // Security and limits (README): DNS-rebinding host check, the CORS policy, no cross-site writes.
  app.use(hostGuard(sandbox));
  // The default sandbox, or the workspace of /w/<name>/... (src/workspaces/).
  app.use(selectWorkspace(sandbox));
  app.use('/openapi.json', corsPolicy('public'));
  // The integration report (src/report): successful creates and reads of a trade here, refusals in onError.
  const counting = options.countMistakes !== false;
  if (counting) {
    app.post('/api/v1/trades/deposit/create', countCreates);
    app.post('/api/v1/trades/deposit/build', countCreates);
    app.get('/api/v1/trades/:merchant/:uuid', countReads);
  }
  app.use('/api/*', corsPolicy('provider'));
  app.use('/_sandbox/*', corsPolicy('admin'), crossSiteGuard);
  app.use('/pay/*', crossSiteGuard);

  app.route('/', serverWorkspaceRoutes(sandbox));
  app.route('/api/v1/trades', providerRoutes());
  app.route('/pay', paymentRoutes());
  app.route('/assets', assetRoutes());
  // The dashboard shell owns exactly GET /_sandbox/ (and its assets); mounted before the admin API.
  app.get('/_sandbox', (c) => c.redirect(`${c.get('base')}/_sandbox/`, 301));
  app.route('/_sandbox/', dashboardRoutes());
  app.route('/_sandbox', adminRoutes());
  app.route('/openapi.json', openApiRoutes());

  app.notFound(() => {
    throw new SandboxError(404, 'not_found', `No route matches this method and path. The sandbox serves ${ROUTES}.`);
  });

  app.onError((error, c) => {
    if (error instanceof SandboxError) {
      if (counting) countRefusal((sandboxOf(c) ?? sandbox).report, c, error);
      return c.json(error.toJSON(), error.status as 400, error.headers);
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
