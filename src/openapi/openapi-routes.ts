import { createRoute } from '@hono/zod-openapi';
import { ResourceApp } from '../http/resource-app.js';
import type { Profile } from '../profile/profile-schema.js';
import type { DocumentOptions } from './document-from-routes.js';
import { profileDocument } from './profile-document.js';
import { statesDocument } from './states-document.js';
import { SECURITY } from './security.js';

/** How many documents (one per public URL and profile: the server's and each workspace's) are kept. */
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
 * its server, under its provider profile (src/openapi/profile-document.ts). It holds no data, so
 * it needs no admin token. Built once per public URL and profile.
 */
export function openApiRoutes(document: (options: DocumentOptions) => Record<string, unknown>) {
  let built = new WeakMap<Profile, Map<string, string>>();
  let count = 0;
  return new ResourceApp().openapi(openApiJson, (c) => {
    const { publicUrl: url, profile } = c.get('sandbox');
    if (count >= KEPT) {
      built = new WeakMap();
      count = 0;
    }
    const byUrl = built.get(profile) ?? new Map<string, string>();
    built.set(profile, byUrl);
    let text = byUrl.get(url);
    if (text === undefined) {
      text = JSON.stringify(profileDocument(statesDocument(document({ serverUrl: url }), profile.states.intermediate), profile));
      byUrl.set(url, text);
      count++;
    }
    // The document is JSON Schema of its own standard, not a zod schema: the declaration types no body for it.
    return c.body(text, 200, { 'Content-Type': 'application/json; charset=UTF-8' }) as never;
  });
}
