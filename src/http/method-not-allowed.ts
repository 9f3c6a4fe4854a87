import type { Env, Hono } from 'hono';
import { inspectRoutes } from 'hono/dev';
import { SandboxError } from './errors.js';

/** The order an Allow header lists methods in. */
const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

interface Route {
  method: string;
  pattern: RegExp;
  /** How many of its segments are fixed words rather than parameters or wildcards. */
  fixed: number;
}

/** A route path of Hono (`/w/:workspace/_sandbox/trades/:id`, `/assets/*`) as a regular expression of the paths it matches. */
function pathPattern(path: string): RegExp {
  const segments = path.split('/').map((segment) => {
    if (segment === '*') return '.*';
    const param = /^:\w+(?:\{(.+)\})?$/.exec(segment);
    if (param) return param[1] !== undefined ? `(?:${param[1]})` : '[^/]+';
    return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return new RegExp(`^${segments.join('/')}$`);
}

/**
 * The 405 of a method a path does not take, for `app.notFound`: given a request's method and
 * path, the refusal (`method_not_allowed`, with an Allow header naming the methods the path takes)
 * when some route of `app` serves the path with another method, or undefined when none serves
 * it at all (a 404). The routes (middleware left out) are read on first use, once the app has
 * every route. A GET route also takes HEAD, as Hono answers HEAD with it. Of the routes that
 * match, only those with the most fixed segments count, as a client reads the path:
 * `/api/v1/trades/deposit/create` is the create endpoint (POST), though the pattern of get,
 * `/api/v1/trades/:merchant/:uuid`, matches it too (and answers a GET there with a 404 that
 * says to POST).
 */
export function methodNotAllowed<E extends Env>(app: Hono<E>): (method: string, path: string) => SandboxError | undefined {
  let routes: Route[] | undefined;
  return (method, path) => {
    routes ??= inspectRoutes(app)
      .filter((route) => !route.isMiddleware)
      .map((route) => ({ method: route.method, pattern: pathPattern(route.path), fixed: route.path.split('/').filter((segment) => segment !== '*' && !segment.startsWith(':')).length }));
    const matching = routes.filter((route) => route.pattern.test(path));
    const most = Math.max(...matching.map((route) => route.fixed));
    const methods = new Set(matching.filter((route) => route.fixed === most).map((route) => route.method));
    if (methods.has('GET')) methods.add('HEAD');
    if (methods.size === 0 || methods.has('ALL') || methods.has(method.toUpperCase())) return undefined;
    const allowed = [...methods].sort((a, b) => (ORDER.indexOf(a) + 1 || ORDER.length + 1) - (ORDER.indexOf(b) + 1 || ORDER.length + 1));
    return new SandboxError(405, 'method_not_allowed', `${path} does not take ${method}: it takes ${allowed.join(', ')} (the Allow header lists them).`, {
      headers: { Allow: allowed.join(', ') },
    });
  };
}
