import { Hono } from 'hono';
import type { Sandbox } from '../sandbox.js';
import { callbackRoutes } from './callback-routes.js';
import { checkCallbackRoutes } from './check-callback-routes.js';
import { clockRoutes } from './clock-routes.js';
import { healthRoutes } from './health-routes.js';
import { merchantRoutes } from './merchant-routes.js';
import { reportRoutes } from './report-routes.js';
import { resetRoutes } from './reset-routes.js';
import { scenarioRoutes } from './scenario-routes.js';
import { tradeRoutes } from './trade-routes.js';
import { scenarioUploadRoutes, workspaceMerchantRoutes } from '../workspaces/workspace-admin-routes.js';

/**
 * The sandbox's own routes, mounted at /_sandbox. Each resource guards itself with the
 * admin token (when set); health is open, and so is anything else mounted here (the
 * dashboard shell holds no data).
 */
export function adminRoutes(sandbox: Sandbox) {
  const app = new Hono();
  app.route('/health', healthRoutes(sandbox));
  app.route('/trades', tradeRoutes(sandbox));
  app.route('/callbacks', callbackRoutes(sandbox));
  app.route('/clock', clockRoutes(sandbox));
  app.route('/reset', resetRoutes(sandbox));
  app.route('/scenarios', scenarioRoutes(sandbox));
  app.route('/scenarios', scenarioUploadRoutes(sandbox));
  app.route('/merchants', merchantRoutes(sandbox));
  app.route('/merchants', workspaceMerchantRoutes(sandbox));
  app.route('/check-callback', checkCallbackRoutes(sandbox));
  app.route('/report', reportRoutes(sandbox));
  return app;
}
