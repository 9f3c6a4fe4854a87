import type { Context, MiddlewareHandler } from 'hono';
import { SandboxError } from '../http/errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Why a request is a cross-site browser request, or undefined when it is not: the browser's
 * `Sec-Fetch-Site` when it sent one, else an `Origin` other than the request's own. A client
 * that sends neither (curl, CI, a merchant's server) is not a browser page and passes.
 */
export function crossSiteReason(c: Context): string | undefined {
  const site = c.req.header('Sec-Fetch-Site');
  if (site !== undefined) return site === 'same-origin' || site === 'none' ? undefined : `Sec-Fetch-Site: ${site.slice(0, 40)}`;
  const origin = c.req.header('Origin');
  if (origin === undefined) return undefined;
  return origin === new URL(c.req.url).origin ? undefined : `Origin: ${origin.slice(0, 100)}`;
}

/**
 * CSRF protection for routes that change state (the admin API, the payment page's forms):
 * a POST (or any unsafe method) sent by a page of another site is refused with 403
 * `cross_site_request`, so a web page the developer happens to visit cannot reset the
 * sandbox, replay callbacks or pay trades through the browser. Same-origin pages (the
 * dashboard, the payment page) and non-browser clients are unaffected.
 */
export const crossSiteGuard: MiddlewareHandler = async (c, next) => {
  if (!SAFE_METHODS.has(c.req.method)) {
    const reason = crossSiteReason(c);
    if (reason !== undefined) {
      throw new SandboxError(
        403,
        'cross_site_request',
        `${c.req.method} ${c.req.path} was sent by a web page of another site (${reason}); the sandbox refuses cross-site writes so that pages you visit cannot change it. Call it from your server, tests or the command line, or use the dashboard at /_sandbox/.`,
        { details: [{ field: 'Origin', message: 'a cross-site browser request' }] },
      );
    }
  }
  await next();
};
