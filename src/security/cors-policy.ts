import type { Context, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { SandboxError } from '../http/errors.js';

/** Which part of the sandbox a policy covers. */
export type CorsScope = 'provider' | 'admin' | 'public';

const PROVIDER_HEADERS = ['Content-Type', 'X-Auth', 'X-Token', 'X-Sandbox-Scenario'];
const ADMIN_HEADERS = ['Content-Type', 'Authorization'];

const WHY: Record<Exclude<CorsScope, 'public'>, string> = {
  provider:
    'The provider API is server-to-server, like the real Deposit Trade Service: call it from your backend, where the token and secret stay. A browser frontend that called it directly would work against the sandbox and fail in production.',
  admin: 'The admin API can read every trade and reset the sandbox, so pages of other sites may not call it. Call it from your tests or server, or use the dashboard at /_sandbox/.',
};

const sameOrigin = (origin: string, c: Context): string | null => (origin !== '' && origin === new URL(c.req.url).origin ? origin : null);

/**
 * The CORS policy (README, "Security and limits"), built on hono/cors:
 * - `provider` (/api/*) and `admin` (/_sandbox/*): no cross-origin access. A preflight
 *   from another origin is answered 403 with an envelope that says why (browsers show it
 *   in the network panel); actual cross-origin requests get no Access-Control-Allow-Origin,
 *   so the page cannot read the answer. Same-origin requests are answered as usual.
 * - `public` (/openapi.json): any origin may read it (a public document, for API tools).
 * Requests without an Origin header (servers, curl, tests) skip all of this.
 */
export function corsPolicy(scope: CorsScope): MiddlewareHandler {
  if (scope === 'public') return cors({ origin: '*', allowMethods: ['GET', 'HEAD'] });
  const policy = cors({
    origin: sameOrigin,
    allowMethods: scope === 'provider' ? ['GET', 'POST'] : ['GET', 'POST', 'HEAD'],
    allowHeaders: scope === 'provider' ? PROVIDER_HEADERS : ADMIN_HEADERS,
    exposeHeaders: scope === 'provider' ? ['X-Sandbox-Scenario'] : [],
    maxAge: 600,
  });
  // Not async: on every request, one promise fewer (Hono's compose catches what it throws).
  return (c, next) => {
    const origin = c.req.header('Origin');
    if (origin === undefined && c.req.method !== 'OPTIONS') return next();
    if (c.req.method === 'OPTIONS' && origin !== undefined && sameOrigin(origin, c) === null) {
      throw new SandboxError(403, 'cross_origin_refused', `Cross-origin requests from ${JSON.stringify(origin.slice(0, 100))} are not allowed. ${WHY[scope]}`, {
        details: [{ field: 'Origin', message: "not the sandbox's own origin" }],
      });
    }
    return policy(c, next);
  };
}
