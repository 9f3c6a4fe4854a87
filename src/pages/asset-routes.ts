import { Hono } from 'hono';
import { PAY_CSS } from './assets/pay-css.js';
import { clientBundle } from './client-bundle.js';
import { asset, securityHeaders } from './respond.js';

/**
 * The payment pages' stylesheet and script (built from src/pages/client/pay.ts), mounted at `/assets`. Not under `/pay/`: a static
 * path beside `/pay/:id` would make Hono fall back from its RegExpRouter to the slower
 * TrieRouter for every request, the provider API's included.
 */
export function assetRoutes() {
  const app = new Hono();
  app.get('/pay.css', securityHeaders, (c) => asset(c, PAY_CSS, 'text/css'));
  app.get('/pay.js', securityHeaders, (c) => asset(c, clientBundle('pay.js'), 'text/javascript'));
  return app;
}
