import { dashboardApi } from './dashboard-api.js';
import { dashboardCheck } from './dashboard-check.js';
import { dashboardClient } from './dashboard-client.js';
import { dashboardDetail } from './dashboard-detail.js';
import { dashboardDom } from './dashboard-dom.js';
import { dashboardI18n } from './dashboard-i18n.js';
import { dashboardNewTrade } from './dashboard-new-trade.js';
import { dashboardProfile } from './dashboard-profile.js';
import { dashboardReport } from './dashboard-report.js';
import { dashboardSections } from './dashboard-sections.js';
import { workspacePicker } from './workspace-picker.js';

/**
 * The dashboard's browser script: bundled by rolldown into dist/client/dashboard.js at build
 * time and served at /_sandbox/assets/dashboard.js.
 */
const i18n = dashboardI18n();
const dom = dashboardDom(i18n);
const api = dashboardApi(i18n);
const names = new Map<string, string>();
const detail = dashboardDetail(dom, (id) => names.get(id.toLowerCase()) ?? id);
let select: (id: string) => void = () => undefined;
const profile = dashboardProfile(dom, api);
const newTrade = dashboardNewTrade(dom, (id) => select(id), profile);
select = dashboardClient(dom, api, detail, newTrade, names, profile).select;
dashboardCheck(dom, api);
dashboardReport(dom, api);
workspacePicker(dom, api);
dashboardSections();
