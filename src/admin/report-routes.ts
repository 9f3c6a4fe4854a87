import { Hono } from 'hono';
import type { SandboxEnv } from '../http/sandbox-env.js';
import { requireSandboxAdmin } from '../http/admin-guard.js';
import { creditsSettled, serverReport } from '../report/server-report.js';

/**
 * GET /_sandbox/report: the merchant's mistakes and coverage the sandbox counted (src/report), per
 * merchant; at the root, every workspace's too (/w/<name>/_sandbox/report: that workspace's).
 */
export function reportRoutes() {
  const app = new Hono<SandboxEnv>();
  app.use(requireSandboxAdmin);
  app.get('/', async (c) => {
    const sandbox = c.get('sandbox');
    const server = c.get('server');
    // Of the workspace default, the whole server's.
    const others = sandbox === server.root ? server.workspaces : undefined;
    // With --probe: the credits of callbacks already acknowledged are read first (bounded).
    await creditsSettled(sandbox, others);
    return c.json(serverReport(sandbox, others));
  });
  return app;
}
