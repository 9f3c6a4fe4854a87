import { Hono } from 'hono';
import type { Sandbox } from '../sandbox.js';
import { openApiDocument } from './openapi-document.js';

/**
 * GET /openapi.json: the OpenAPI document, with the sandbox's public URL as its server. It
 * holds no data, so it needs no admin token. Built once per public URL.
 */
export function openApiRoutes(sandbox: Sandbox) {
  let cached: { url: string; text: string } | undefined;
  return new Hono().get('/', (c) => {
    if (cached?.url !== sandbox.publicUrl) cached = { url: sandbox.publicUrl, text: JSON.stringify(openApiDocument({ serverUrl: sandbox.publicUrl })) };
    return c.body(cached.text, 200, { 'Content-Type': 'application/json; charset=UTF-8' });
  });
}
