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

/**
 * The admin API: the routes under `/_sandbox`, but for the dashboard's page and its files
 * (`GET /_sandbox`, `GET /_sandbox/`, `GET /_sandbox/assets/...`), which are pages, not API.
 */
export function isAdminRoute(route: AppRoute): boolean {
  if (route.path !== '/_sandbox' && !route.path.startsWith('/_sandbox/')) return false;
  if (route.method !== 'GET') return true;
  return route.path !== '/_sandbox' && route.path !== '/_sandbox/' && !route.path.startsWith('/_sandbox/assets/');
}
