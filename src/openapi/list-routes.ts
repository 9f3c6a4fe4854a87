import type { Env, Hono } from 'hono';
import { inspectRoutes } from 'hono/dev';

/** One route of the app: a method and a path pattern as registered (`/_sandbox/trades/:id`). */
export interface AppRoute {
  method: string;
  path: string;
}

/** A workspace prefix in front of a route (`/w/:workspace/...`), should the app register one. */
const WORKSPACE_PREFIX = /^\/w\/:[^/]+(?=\/|$)/;

/**
 * The routes of `app` that answer requests (middleware left out), each method and path once, in
 * the order they were added, read from Hono's own route list. A route registered under a workspace
 * prefix is listed without it: every route exists on both, unprefixed and under `/w/<name>`.
 * Used by `npm run docs` (the route list of docs/admin-api.md) and by the docs tests.
 */
export function listRoutes<E extends Env>(app: Hono<E>): AppRoute[] {
  const seen = new Set<string>();
  const routes: AppRoute[] = [];
  for (const route of inspectRoutes(app)) {
    if (route.isMiddleware) continue;
    const path = route.path.replace(WORKSPACE_PREFIX, '') || '/';
    const key = `${route.method} ${path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    routes.push({ method: route.method, path });
  }
  return routes;
}
