import { Hono } from 'hono';
import type { SandboxEnv } from '../http/sandbox-env.js';
import { callbackRoutes } from './callback-routes.js';
import { checkCallbackRoutes } from './check-callback-routes.js';
import { clockRoutes } from './clock-routes.js';
import { healthRoutes } from './health-routes.js';
import { merchantRoutes } from './merchant-routes.js';
import { reportRoutes } from './report-routes.js';
import { resetRoutes } from './reset-routes.js';
import { scenarioRoutes } from './scenario-routes.js';
import { tradeRoutes } from './trade-routes.js';

/**
 * The sandbox's own routes, mounted at /_sandbox. Each resource guards itself with the
 * admin token (when set); health is open, and so is anything else mounted here (the
 * dashboard shell holds no data).
 */
export function adminRoutes() {
  const app = new Hono<SandboxEnv>();
  app.route('/health', healthRoutes());
  app.route('/trades', tradeRoutes());
  app.route('/callbacks', callbackRoutes());
  app.route('/clock', clockRoutes());
  app.route('/reset', resetRoutes());
  app.route('/scenarios', scenarioRoutes());
  app.route('/merchants', merchantRoutes());
  app.route('/check-callback', checkCallbackRoutes());
  app.route('/report', reportRoutes());
  return app;
}
