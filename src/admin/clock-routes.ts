import { Hono } from 'hono';
import { z } from 'zod';
import { ADMIN_BODY_LIMIT, jsonBody } from '../http/body.js';
import { validate } from '../http/validation.js';
import { DURATION_HINT } from '../clock/duration.js';
import { durationSchema } from '../clock/duration-schema.js';
import type { SandboxEnv } from '../http/sandbox-env.js';
import { requireSandboxAdmin } from '../http/admin-guard.js';

/** The furthest one advance may move the clock (keeps dates valid). */
const MAX_ADVANCE = 10 * 365 * 24 * 3600 * 1000;

export const advanceSchema = z.object(
  { by: durationSchema.refine((ms) => ms <= MAX_ADVANCE, 'must be at most 10 years (3650d)') },
  { error: `must be a JSON object such as {"by": "10m"}; by is ${DURATION_HINT}` },
);

/** /_sandbox/clock: the sandbox time, and moving it forward. */
export function clockRoutes() {
  const app = new Hono<SandboxEnv>();
  app.use(requireSandboxAdmin);

  app.get('/', (c) => {
    const sandbox = c.get('sandbox');
    const pending = sandbox.scheduler.pending();
    const next = pending[0];
    return c.json({
      mode: sandbox.clock.mode,
      now: sandbox.clock.nowIso(),
      pending: pending.length,
      next_due: next ? new Date(next.due).toISOString() : null,
    });
  });

  app.post('/advance', jsonBody(ADMIN_BODY_LIMIT), validate('json', advanceSchema), async (c) => {
    const sandbox = c.get('sandbox');
    const { now, ran } = await sandbox.scheduler.advance(c.req.valid('json').by);
    return c.json({ now: new Date(now).toISOString(), ran });
  });

  return app;
}
