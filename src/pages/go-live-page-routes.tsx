import { createRoute } from '@hono/zod-openapi';
import { ResourceApp } from '../http/resource-app.js';
import { html } from '../openapi/error-responses.js';
import { SECURITY } from '../openapi/security.js';
import { GO_LIVE_CSS } from './assets/go-live-css.js';
import { clientBundle } from './client-bundle.js';
import { GoLivePage } from './components/go-live-page.js';
import { asset, page, securityHeaders } from './respond.js';

const goLive = createRoute({
  method: 'get',
  path: '/',
  operationId: 'goLivePage',
  tags: ['pages'],
  summary: 'The go-live checklist page: each provider behaviour met, not met or wrong, and a receiver check',
  description: 'The page loads the checklist from GET /_sandbox/go-live and checks a receiver through POST /_sandbox/go-live, with the admin token the dashboard keeps for this tab.',
  security: SECURITY.open,
  middleware: [securityHeaders],
  responses: { 200: html('The go-live page.') },
});

/** The go-live page (English; `?lang=ru` for Russian) and its files, mounted at /go-live; the files are not operations of /openapi.json. */
export function goLivePageRoutes() {
  const app = new ResourceApp().openapi(goLive, (c) => page(c, <GoLivePage lang={c.req.query('lang') === 'ru' ? 'ru' : 'en'} base={c.get('base')} workspace={c.get('sandbox').workspace} />));
  app.get('/assets/go-live.css', securityHeaders, (c) => asset(c, GO_LIVE_CSS, 'text/css'));
  app.get('/assets/go-live.js', securityHeaders, (c) => asset(c, clientBundle('go-live.js'), 'text/javascript'));
  return app;
}
