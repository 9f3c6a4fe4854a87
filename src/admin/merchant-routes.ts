import { Hono } from 'hono';
import { z } from 'zod';
import { AUTH_MODES } from '../auth/authenticate.js';
import type { Sandbox } from '../sandbox.js';
import { requireAdminToken } from './admin-token.js';

/**
 * GET /_sandbox/merchants: the fixtures' merchants with their credentials and the
 * `--auth` mode, so the dashboard's "New trade" form can call the provider API as the
 * merchant would (behind the admin token when one is set, like every admin route).
 */
export const merchantsAnswerSchema = z.object({
  auth: z.enum(AUTH_MODES),
  merchants: z.array(z.object({ id: z.string(), name: z.string(), token: z.string(), secret: z.string() })),
});
export type MerchantsAnswer = z.infer<typeof merchantsAnswerSchema>;

export function merchantRoutes(sandbox: Sandbox) {
  const app = new Hono();
  app.use(requireAdminToken(sandbox.options.adminToken));
  app.get('/', (c) => {
    const answer: MerchantsAnswer = {
      auth: sandbox.options.auth,
      merchants: sandbox.merchants.list().map(({ id, name, token, secret }) => ({ id, name, token, secret })),
    };
    return c.json(answer);
  });
  return app;
}
