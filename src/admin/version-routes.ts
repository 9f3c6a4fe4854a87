import { readFileSync } from 'node:fs';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { requireSandboxAdmin } from '../http/admin-guard.js';
import { ResourceApp } from '../http/resource-app.js';
import { ADMIN_401, answer } from '../openapi/error-responses.js';
import { named } from '../openapi/schema-name.js';
import { SECURITY } from '../openapi/security.js';

/** The package.json of the package this module ships in. */
const PACKAGE = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

export const versionAnswerSchema = named('VersionAnswer', z.object({ name: z.string(), version: z.string() }));

const versionRoute = createRoute({
  method: 'get',
  path: '/',
  operationId: 'version',
  tags: ['sandbox'],
  summary: 'The name and version of the sandbox package that answers',
  security: SECURITY.admin,
  responses: { 200: answer('The package name and its version, as in its package.json.', versionAnswerSchema), 401: ADMIN_401 },
});

/** GET /_sandbox/version: which deposit-sandbox answers, e.g. `{"name":"deposit-sandbox","version":"0.1.0"}`. */
export function versionRoutes() {
  const app = new ResourceApp();
  app.use(requireSandboxAdmin);
  return app.openapi(versionRoute, (c) => c.json({ name: PACKAGE.name, version: PACKAGE.version }, 200));
}
