import { dashboardApi } from './dashboard-api.js';
import { dashboardCheck } from './dashboard-check.js';
import { dashboardClient } from './dashboard-client.js';
import { dashboardDetail } from './dashboard-detail.js';
import { dashboardDom } from './dashboard-dom.js';

/**
 * The dashboard's browser script: bundled by rolldown into dist/client/dashboard.js at build
 * time and served at /_sandbox/assets/dashboard.js.
 */
const dom = dashboardDom();
const api = dashboardApi();
dashboardClient(dom, api, dashboardDetail(dom));
dashboardCheck(dom, api);
