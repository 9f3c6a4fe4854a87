import { Hono } from 'hono';
import { DASHBOARD_CSS } from './assets/dashboard-css.js';
import { clientBundle } from './client-bundle.js';
import { DashboardPage } from './components/dashboard-page.js';
import { asset, page, securityHeaders } from './respond.js';
import type { SandboxEnv } from '../http/sandbox-env.js';

/**
 * The dashboard shell (English; `?lang=ru` for Russian) and its assets, mounted at `/_sandbox/` (with the trailing slash, so
 * `GET /_sandbox/` is this page and the admin API keeps every other /_sandbox path). None of
 * these hold data, so they are served without the admin token; the script sends it.
 */
export function dashboardRoutes() {
  const app = new Hono<SandboxEnv>();
  // Per route, not app.use('*'): a wildcard here would also wrap the admin API's routes.
  app.get('/', securityHeaders, (c) => page(c, <DashboardPage lang={c.req.query('lang') === 'ru' ? 'ru' : 'en'} base={c.get('base')} workspace={c.get('sandbox').workspace} />));
  app.get('/assets/dashboard.css', securityHeaders, (c) => asset(c, DASHBOARD_CSS, 'text/css'));
  app.get('/assets/dashboard.js', securityHeaders, (c) => asset(c, clientBundle('dashboard.js'), 'text/javascript'));
  return app;
}
