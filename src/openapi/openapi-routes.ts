import { createRoute } from '@hono/zod-openapi';
import { ResourceApp } from '../http/resource-app.js';
import type { DocumentOptions } from './document-from-routes.js';
import { SECURITY } from './security.js';

/** How many documents (one per public URL: the server's and each workspace's) are kept. */
const KEPT = 64;

const openApiJson = createRoute({
  method: 'get',
  path: '/',
  operationId: 'openApiDocument',
  tags: ['pages'],
  summary: 'This document',
  description: 'Any origin may read it (CORS *), with or without --admin-token.',
  security: SECURITY.open,
  responses: { 200: { description: 'An OpenAPI 3.1 document.', content: { 'application/json': { schema: { type: 'object', description: 'OpenAPI 3.1' } } } } },
});

/**
 * GET /openapi.json: `document` with the public URL of the request's sandbox (or workspace) as
 * its server. It holds no data, so it needs no admin token. Built once per public URL.
 */
export function openApiRoutes(document: (options: DocumentOptions) => Record<string, unknown>) {
  const built = new Map<string, string>();
  return new ResourceApp().openapi(openApiJson, (c) => {
    const url = c.get('sandbox').publicUrl;
    let text = built.get(url);
    if (text === undefined) {
      if (built.size >= KEPT) built.clear();
      text = JSON.stringify(document({ serverUrl: url }));
      built.set(url, text);
    }
    // The document is JSON Schema of its own standard, not a zod schema: the declaration types no body for it.
    return c.body(text, 200, { 'Content-Type': 'application/json; charset=UTF-8' }) as never;
  });
}
