import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { ADMIN_BODY_LIMIT } from '../http/body.js';
import { ADVANCE_LIMIT_MS, DURATION_HINT } from '../clock/duration.js';
import { durationSchema } from '../clock/duration-schema.js';
import { requireSandboxAdmin } from '../http/admin-guard.js';
import { jsonRequest } from '../http/request-body.js';
import { ResourceApp } from '../http/resource-app.js';
import { ADMIN_401, ADMIN_TOO_LARGE, answer, BODY_422, error } from '../openapi/error-responses.js';
import { named } from '../openapi/schema-name.js';
import { SECURITY } from '../openapi/security.js';
import { advanceAnswerSchema, clockAnswerSchema } from './admin-answers.js';

export const advanceSchema = named(
  'AdvanceRequest',
  z.object({ by: durationSchema.refine((ms) => ms <= ADVANCE_LIMIT_MS, 'must be at most 10 years (3650d)') }, { error: `must be a JSON object such as {"by": "10m"}; by is ${DURATION_HINT}` }),
  'by: a duration such as "500ms", "10s", "5m", "2h", "1d", or a number of milliseconds.',
);

const clock = createRoute({
  method: 'get',
  path: '/',
  operationId: 'getClock',
  tags: ['sandbox'],
  summary: 'The sandbox clock and its pending steps',
  security: SECURITY.admin,
  responses: { 200: answer('Mode, time, and the next step due.', clockAnswerSchema), 401: ADMIN_401 },
});

const advance = createRoute({
  method: 'post',
  path: '/advance',
  operationId: 'advanceClock',
  tags: ['sandbox'],
  summary: 'Move the clock forward and run everything that falls due, in order',
  security: SECURITY.admin,
  request: { body: jsonRequest(advanceSchema, ADMIN_BODY_LIMIT) },
  responses: {
    200: answer('The new time and how many steps ran.', advanceAnswerSchema),
    401: ADMIN_401,
    413: ADMIN_TOO_LARGE,
    422: error(`${BODY_422} by must be a duration such as "10m".`),
  },
});

/** /_sandbox/clock: the sandbox time, and moving it forward. */
export function clockRoutes() {
  const app = new ResourceApp();
  app.use(requireSandboxAdmin);
  return app
    .openapi(clock, (c) => {
      const sandbox = c.get('sandbox');
      const pending = sandbox.scheduler.pending();
      const next = pending[0];
      return c.json({ mode: sandbox.clock.mode, now: sandbox.clock.nowIso(), pending: pending.length, next_due: next ? new Date(next.due).toISOString() : null }, 200);
    })
    .openapi(advance, async (c) => {
      const sandbox = c.get('sandbox');
      const { now, ran } = await sandbox.scheduler.advance(c.req.valid('json').by);
      return c.json({ now: new Date(now).toISOString(), ran }, 200);
    });
}
