import { adminRoutes } from '../admin/routes.js';
import { providerRoutes } from '../api/provider.js';
import { ResourceApp } from '../http/resource-app.js';
import { assetRoutes } from '../pages/asset-routes.js';
import { dashboardRoutes } from '../pages/dashboard-routes.js';
import { goLivePageRoutes } from '../pages/go-live-page-routes.js';
import { paymentRoutes } from '../pages/payment-routes.js';
import type { DocumentOptions } from './document-from-routes.js';
import { openApiRoutes } from './openapi-routes.js';

/**
 * The route table: the resources of one sandbox at their paths, the provider's three endpoints,
 * the payment page and its files, the dashboard, the admin API, and GET /openapi.json, which
 * answers `document` (openApiDocument(): the document of these routes and the server's own).
 * Each resource app declares its routes once (src/http/resource-app.ts); mounted here, their
 * declarations are this app's, which the document is generated from.
 */
export function routeTable(document: (options: DocumentOptions) => Record<string, unknown>) {
  const app = new ResourceApp().route('/api/v1/trades', providerRoutes()).route('/pay', paymentRoutes()).route('/assets', assetRoutes()).route('/go-live', goLivePageRoutes());
  // The dashboard shell owns exactly GET /_sandbox/ (and its assets); mounted before the admin API.
  app.get('/_sandbox', (c) => c.redirect(`${c.get('base')}/_sandbox/`, 301));
  return app.route('/_sandbox/', dashboardRoutes()).route('/_sandbox', adminRoutes()).route('/openapi.json', openApiRoutes(document));
}
