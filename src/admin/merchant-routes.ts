import { Hono } from 'hono';
import { z } from 'zod';
import { AUTH_MODES } from '../auth/authenticate.js';
import type { SandboxEnv } from '../http/sandbox-env.js';
import { requireSandboxAdmin } from '../http/admin-guard.js';

/**
 * GET /_sandbox/merchants: the merchants of this sandbox (workspace) and the `--auth` mode.
 * The fixtures' merchants come with their token and secret (they are in the fixtures file
 * anyway), so the dashboard's "New trade" form can call the provider API as the merchant
 * would; a merchant added to a workspace (POST, src/workspaces/) had its credentials answered
 * once, in the 201, and is listed without them. Behind the admin token when one is set.
 */
export const merchantsAnswerSchema = z.object({
  auth: z.enum(AUTH_MODES),
  merchants: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      rate: z.number(),
      from: z.enum(['fixtures', 'workspace']),
      token: z.string().optional(),
      secret: z.string().optional(),
    }),
  ),
});
export type MerchantsAnswer = z.infer<typeof merchantsAnswerSchema>;

export function merchantRoutes() {
  const app = new Hono<SandboxEnv>();
  app.use(requireSandboxAdmin);
  app.get('/', (c) => {
    const sandbox = c.get('sandbox');
    const fixtures = new Set(sandbox.shared.fixtures.merchants.map((m) => m.id.toLowerCase()));
    const answer: MerchantsAnswer = {
      auth: sandbox.options.auth,
      merchants: sandbox.merchants
        .list()
        .map(({ id, name, rate, token, secret }) => (fixtures.has(id.toLowerCase()) ? { id, name, rate, from: 'fixtures' as const, token, secret } : { id, name, rate, from: 'workspace' as const })),
    };
    return c.json(answer);
  });
  return app;
}
