import { ResourceApp } from '../http/resource-app.js';
import { callbackRoutes } from './callback-routes.js';
import { checkCallbackRoutes } from './check-callback-routes.js';
import { clockRoutes } from './clock-routes.js';
import { healthRoutes } from './health-routes.js';
import { merchantRoutes } from './merchant-routes.js';
import { forkRoutes } from './fork-routes.js';
import { goLiveRoutes } from './go-live-routes.js';
import { profileRoutes } from './profile-routes.js';
import { reportRoutes } from './report-routes.js';
import { resetRoutes } from './reset-routes.js';
import { resumeRoutes } from './resume-routes.js';
import { scenarioRoutes } from './scenario-routes.js';
import { sessionRoutes } from './session-routes.js';
import { stateRoutes } from './state-routes.js';
import { tradeRoutes } from './trade-routes.js';
import { versionRoutes } from './version-routes.js';

/**
 * The sandbox's own routes, mounted at /_sandbox. Each resource guards itself with the
 * admin token (when set); health is open, and so is anything else mounted here (the
 * dashboard shell holds no data). The type of the app is the typed client's (AdminApp).
 */
export function adminRoutes() {
  return new ResourceApp()
    .route('/health', healthRoutes())
    .route('/trades', tradeRoutes())
    .route('/resume-callbacks', resumeRoutes())
    .route('/callbacks', callbackRoutes())
    .route('/clock', clockRoutes())
    .route('/reset', resetRoutes())
    .route('/scenarios', scenarioRoutes())
    .route('/profile', profileRoutes())
    .route('/merchants', merchantRoutes())
    .route('/check-callback', checkCallbackRoutes())
    .route('/report', reportRoutes())
    .route('/go-live', goLiveRoutes())
    .route('/state', stateRoutes())
    .route('/fork', forkRoutes())
    .route('/session.har', sessionRoutes())
    .route('/version', versionRoutes());
}

/** The admin API's routes and their types, for the typed client (hc of hono/client). */
export type AdminApp = ReturnType<typeof adminRoutes>;
