import { createRoute } from '@hono/zod-openapi';
import { ResourceApp } from '../http/resource-app.js';
import { html } from '../openapi/error-responses.js';
import { SECURITY } from '../openapi/security.js';
import { DASHBOARD_CSS } from './assets/dashboard-css.js';
import { clientBundle } from './client-bundle.js';
import { DashboardPage } from './components/dashboard-page.js';
import { asset, page, securityHeaders } from './respond.js';

const dashboard = createRoute({
  method: 'get',
  path: '/',
  operationId: 'dashboard',
  tags: ['pages'],
  summary: 'The dashboard: trades, their history and callbacks, forced transitions, the clock',
  description: 'GET /_sandbox redirects here (301). The page loads its data from the admin API, with the admin token the user enters when one is set.',
  security: SECURITY.open,
  // Per route, not app.use('*'): a wildcard here would also wrap the admin API's routes.
  middleware: [securityHeaders],
  responses: { 200: html('The dashboard page.') },
});

/**
 * The dashboard shell (English; `?lang=ru` for Russian) and its assets, mounted at `/_sandbox/` (with the trailing slash, so
 * `GET /_sandbox/` is this page and the admin API keeps every other /_sandbox path). None of
 * these hold data, so they are served without the admin token; the script sends it. The assets
 * are files, not operations of /openapi.json.
 */
export function dashboardRoutes() {
  const app = new ResourceApp().openapi(dashboard, (c) =>
    page(c, <DashboardPage lang={c.req.query('lang') === 'ru' ? 'ru' : 'en'} base={c.get('base')} workspace={c.get('sandbox').workspace} states={c.get('sandbox').lifecycle.table().states} />),
  );
  app.get('/assets/dashboard.css', securityHeaders, (c) => asset(c, DASHBOARD_CSS, 'text/css'));
  app.get('/assets/dashboard.js', securityHeaders, (c) => asset(c, clientBundle('dashboard.js'), 'text/javascript'));
  return app;
}
