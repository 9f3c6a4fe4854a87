import { type Context, Hono, type MiddlewareHandler, type Next } from 'hono';
import { getPath } from 'hono/utils/url';
import { requireAdminToken } from '../admin/admin-token.js';
import { SandboxError } from '../errors.js';
import { crossSiteGuard } from '../security/cross-site-guard.js';
import type { Sandbox } from '../sandbox.js';
import type { SandboxEnv } from './request-sandbox.js';
import { DEFAULT_WORKSPACE, workspaceNameProblem } from './workspace-name.js';
import { rawPath, splitWorkspacePath, type WorkspacePath } from './workspace-path.js';
import type { WorkspaceRegistry } from './workspace-registry.js';

/**
 * Chooses the sandbox of each request, before any route runs (src/app.ts), and sets it as
 * `c.get('sandbox')` (request-sandbox.ts):
 * - an unprefixed path: the default sandbox;
 * - `/w/<name>/...`: the workspace `name`, created (or loaded) on first use; the routes see the
 *   path without the prefix (the app's `getPath` is `withoutWorkspacePrefix`);
 * - `DELETE /w/<name>/_sandbox`: removes a workspace, here, without opening it.
 * Without a registry (a sandbox that is itself a workspace) every request gets `root`.
 */
export function selectWorkspace(root: Sandbox): MiddlewareHandler<SandboxEnv> {
  const registry = root.workspaces;
  const admin = requireAdminToken(root.options.adminToken);
  // Not async: a request of the default sandbox or of a workspace already open costs no promise here.
  return (c, next) => {
    const parts = registry === undefined ? undefined : splitWorkspacePath(rawPath(c.req.url));
    if (parts === undefined || registry === undefined) {
      c.set('sandbox', root);
      c.set('base', '');
      return next();
    }
    const ready = c.req.method === 'DELETE' ? undefined : registry.ready(parts.name);
    if (ready === undefined) return openOrRemove(c, next, registry, parts);
    c.set('sandbox', ready);
    c.set('base', `/w/${parts.name}`);
    return next();
  };

  /** A request of a workspace that is not open yet (opened here), or a DELETE (which may remove it). */
  async function openOrRemove(c: Context<SandboxEnv>, next: Next, registry: WorkspaceRegistry, { name, rest }: WorkspacePath): Promise<Response | undefined> {
    if (c.req.method === 'DELETE' && (rest === '/_sandbox' || rest === '/_sandbox/')) {
      // The same protections as every other admin write: no cross-site request, the admin token.
      c.set('sandbox', root);
      c.set('base', '');
      await crossSiteGuard(c, async () => undefined);
      await admin(c, async () => {
        c.res = c.json({ status: 'deleted', workspace: await removeWorkspace(registry, name) });
      });
      return c.res;
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
    c.set('sandbox', sandbox);
    c.set('base', `/w/${name}`);
    await next();
    return undefined;
  }
}

/**
 * Hono's `getPath` of the app when it serves workspaces: the path without its `/w/<name>`
 * prefix, so a workspace's routes are the default sandbox's routes.
 */
export function withoutWorkspacePrefix(request: Request): string {
  const path = getPath(request);
  return splitWorkspacePath(path)?.rest ?? path;
}

/**
 * The routes of the server as a whole, answered on unprefixed paths only (a prefixed request
 * falls through to the 404 of an unknown route, as a workspace has no such routes):
 * `GET /_sandbox/workspaces` lists them; `DELETE /_sandbox` explains that default stays.
 */
export function serverWorkspaceRoutes(root: Sandbox) {
  const registry = root.workspaces;
  const app = new Hono<SandboxEnv>();
  if (registry === undefined) return app;
  const admin = requireAdminToken(root.options.adminToken);
  const unprefixedOnly: MiddlewareHandler<SandboxEnv> = async (c, next) => {
    if (c.get('base') !== '') return c.notFound();
    await next();
  };

  app.get('/_sandbox/workspaces', unprefixedOnly, admin, async (c) => c.json({ workspaces: await registry.list(), limit: root.options.maxWorkspaces }));

  app.delete('/_sandbox', unprefixedOnly, admin, () => {
    throw new SandboxError(
      409,
      'default_workspace',
      'The workspace default (the unprefixed paths) cannot be removed. Empty it with POST /_sandbox/reset, or remove a named one with DELETE /w/<name>/_sandbox.',
    );
  });
  return app;
}

async function removeWorkspace(registry: WorkspaceRegistry, name: string) {
  if (name === DEFAULT_WORKSPACE) throw new SandboxError(409, 'default_workspace', 'The workspace default cannot be removed. Empty it with POST /_sandbox/reset.');
  const problem = workspaceNameProblem(name);
  if (problem !== undefined) throw invalidName(problem);
  const removed = await registry.delete(name);
  if (removed === undefined) {
    throw new SandboxError(404, 'workspace_not_found', `There is no workspace ${JSON.stringify(name)}; nothing was removed. GET /_sandbox/workspaces lists them.`);
  }
  return removed;
}

function invalidName(message: string): SandboxError {
  return new SandboxError(404, 'invalid_workspace_name', message, { details: [{ field: 'path', message: 'the segment after /w/ must be 1 to 64 of A-Z a-z 0-9 _ . -' }] });
}
