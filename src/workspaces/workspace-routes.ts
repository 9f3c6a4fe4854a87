import { Hono } from 'hono';
import { requireAdminToken } from '../admin/admin-token.js';
import { SandboxError } from '../errors.js';
import { crossSiteGuard } from '../security/cross-site-guard.js';
import type { Sandbox } from '../sandbox.js';
import { DEFAULT_WORKSPACE, workspaceNameProblem } from './workspace-name.js';
import { rawPath, splitWorkspacePath } from './workspace-path.js';
import type { WorkspaceRegistry } from './workspace-registry.js';

/** Builds the HTTP app of one workspace whose requests arrive under `prefix` (src/app.ts). */
export type WorkspaceAppFactory = (sandbox: Sandbox, options: { prefix: string }) => { fetch(request: Request, env?: unknown): Response | Promise<Response> };

/**
 * The server-level routes of workspaces, mounted on the default sandbox's app:
 * - `/w/<name>/...`: hands the request, as it is, to the app of workspace `name` (created on
 *   first use), whose routes see the path without the prefix;
 * - `DELETE /w/<name>/_sandbox`: removes a workspace;
 * - `GET /_sandbox/workspaces`: lists them.
 */
export function workspaceRoutes(registry: WorkspaceRegistry, options: { adminToken?: string | undefined; maxWorkspaces: number }, appFor: WorkspaceAppFactory) {
  const apps = new WeakMap<Sandbox, ReturnType<WorkspaceAppFactory>>();
  let defaultApp: ReturnType<WorkspaceAppFactory> | undefined;
  const admin = requireAdminToken(options.adminToken);
  const app = new Hono();

  app.get('/_sandbox/workspaces', admin, async (c) => c.json({ workspaces: await registry.list(), limit: options.maxWorkspaces }));

  app.delete('/_sandbox', admin, () => {
    throw new SandboxError(
      409,
      'default_workspace',
      'The workspace default (the unprefixed paths) cannot be removed. Empty it with POST /_sandbox/reset, or remove a named one with DELETE /w/<name>/_sandbox.',
    );
  });

  app.all('/w/*', async (c, next) => {
    const parts = splitWorkspacePath(rawPath(c.req.url));
    if (parts === undefined) return next();
    const { name, rest } = parts;
    if (c.req.method === 'DELETE' && (rest === '/_sandbox' || rest === '/_sandbox/')) {
      // The same protections as every other admin write: no cross-site request, the admin token.
      await crossSiteGuard(c, async () => undefined);
      return admin(c, async () => {
        if (name === DEFAULT_WORKSPACE) throw new SandboxError(409, 'default_workspace', 'The workspace default cannot be removed. Empty it with POST /_sandbox/reset.');
        const problem = workspaceNameProblem(name);
        if (problem !== undefined) throw invalidName(problem);
        const removed = await registry.delete(name);
        if (removed === undefined) {
          throw new SandboxError(404, 'workspace_not_found', `There is no workspace ${JSON.stringify(name)}; nothing was removed. GET /_sandbox/workspaces lists them.`);
        }
        c.res = c.json({ status: 'deleted', workspace: removed });
      }).then(() => c.res);
    }
    let sandbox = registry.ready(name);
    if (sandbox === undefined) {
      const opened = await registry.open(name).catch((error: unknown) => {
        throw new SandboxError(503, 'workspace_unavailable', `Workspace ${JSON.stringify(name)} cannot be loaded: ${(error as Error).message}`);
      });
      if (!opened.ok) {
        if (opened.reason === 'invalid_name') throw invalidName(opened.message);
        if (opened.reason === 'limit') throw new SandboxError(429, 'workspace_limit', opened.message, { details: [{ field: '--max-workspaces', message: 'limit reached' }] });
        throw new SandboxError(503, 'shutting_down', opened.message);
      }
      sandbox = opened.sandbox;
    }
    let target = sandbox.workspace === DEFAULT_WORKSPACE ? defaultApp : apps.get(sandbox);
    if (target === undefined) {
      target = appFor(sandbox, { prefix: `/w/${name}` });
      if (sandbox.workspace === DEFAULT_WORKSPACE) defaultApp = target;
      else apps.set(sandbox, target);
    }
    return target.fetch(c.req.raw, c.env);
  });

  return app;
}

function invalidName(message: string): SandboxError {
  return new SandboxError(404, 'invalid_workspace_name', message, { details: [{ field: 'path', message: 'the segment after /w/ must be 1 to 64 of A-Z a-z 0-9 _ . -' }] });
}
