import { Hono } from 'hono';
import { dashboardApi } from './assets/dashboard-api.js';
import { dashboardCheck } from './assets/dashboard-check.js';
import { dashboardClient } from './assets/dashboard-client.js';
import { DASHBOARD_CSS } from './assets/dashboard-css.js';
import { dashboardDetail } from './assets/dashboard-detail.js';
import { dashboardDom } from './assets/dashboard-dom.js';
import { DashboardPage } from './components/dashboard-page.js';
import { asset, page, securityHeaders } from './respond.js';
import { workspacePicker } from '../workspaces/workspace-picker.js';

/** The workspace picker's script (src/workspaces/workspace-picker.ts). */
export const WORKSPACES_JS = `"use strict";\n(${workspacePicker.toString()})();\n`;

/** The dashboard script: its parts, each a self-contained function, wired together. */
export const DASHBOARD_JS = `"use strict";
(() => {
  const dom = (${dashboardDom.toString()})();
  const api = (${dashboardApi.toString()})();
  const detail = (${dashboardDetail.toString()})(dom);
  (${dashboardClient.toString()})(dom, api, detail);
  (${dashboardCheck.toString()})(dom, api);
})();
`;

/**
 * The dashboard shell and its assets, mounted at `/_sandbox/` (with the trailing slash, so
 * `GET /_sandbox/` is this page and the admin API keeps every other /_sandbox path). None of
 * these hold data, so they are served without the admin token; the script sends it.
 */
export function dashboardRoutes(where: { base: string; workspace: string } = { base: '', workspace: 'default' }) {
  const app = new Hono();
  // Per route, not app.use('*'): a wildcard here would also wrap the admin API's routes.
  app.get('/', securityHeaders, (c) => page(c, <DashboardPage base={where.base} workspace={where.workspace} />));
  app.get('/assets/dashboard.css', securityHeaders, (c) => asset(c, DASHBOARD_CSS, 'text/css'));
  app.get('/assets/dashboard.js', securityHeaders, (c) => asset(c, DASHBOARD_JS, 'text/javascript'));
  app.get('/assets/workspaces.js', securityHeaders, (c) => asset(c, WORKSPACES_JS, 'text/javascript'));
  return app;
}
