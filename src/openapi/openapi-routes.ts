import { Hono } from 'hono';
import type { SandboxEnv } from '../http/sandbox-env.js';
import { openApiDocument } from './openapi-document.js';

/** How many documents (one per public URL: the server's and each workspace's) are kept. */
const KEPT = 64;

/**
 * GET /openapi.json: the OpenAPI document, with the public URL of the request's sandbox (or
 * workspace) as its server. It holds no data, so it needs no admin token. Built once per
 * public URL.
 */
export function openApiRoutes() {
  const built = new Map<string, string>();
  return new Hono<SandboxEnv>().get('/', (c) => {
    const url = c.get('sandbox').publicUrl;
    let text = built.get(url);
    if (text === undefined) {
      if (built.size >= KEPT) built.clear();
      text = JSON.stringify(openApiDocument({ serverUrl: url }));
      built.set(url, text);
    }
    return c.body(text, 200, { 'Content-Type': 'application/json; charset=UTF-8' });
  });
}
