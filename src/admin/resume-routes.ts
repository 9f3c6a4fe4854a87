import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { requireSandboxAdmin } from '../http/admin-guard.js';
import { ResourceApp } from '../http/resource-app.js';
import { ADMIN_401, answer, EVERY_WORKSPACE } from '../openapi/error-responses.js';
import { named } from '../openapi/schema-name.js';
import { SECURITY } from '../openapi/security.js';
import { resumeHeld } from '../sessions/held-callbacks.js';

export const resumeAnswerSchema = named('ResumeAnswer', z.object({ resumed: z.number().int().meta({ description: 'How many held callback events were scheduled now.' }), now: z.string() }));

const resume = createRoute({
  method: 'post',
  path: '/',
  operationId: 'resumeCallbacks',
  tags: ['sandbox'],
  summary: 'Send the callbacks a fork or a state import held, now',
  description: `A fork (POST /_sandbox/fork) and an import (PUT /_sandbox/state) hold the callbacks they copy pending, unless asked to keep them; this schedules each at the clock's time, in order. ${EVERY_WORKSPACE}`,
  security: SECURITY.admin,
  middleware: [requireSandboxAdmin],
  responses: { 200: answer('How many were scheduled.', resumeAnswerSchema), 401: ADMIN_401 },
});

/**
 * POST /_sandbox/resume-callbacks: the held callbacks (src/sessions/held-callbacks.ts) go out
 * now. Not under /_sandbox/callbacks/: a static path there beside /callbacks/:id/replay is a set
 * Hono's RegExpRouter cannot take, and every request would go through the slower TrieRouter
 * (test/in-process/router.test.ts).
 */
export function resumeRoutes() {
  return new ResourceApp().openapi(resume, async (c) => {
    const sandbox = c.get('sandbox');
    const resumed = resumeHeld(sandbox);
    await sandbox.store.commit();
    return c.json({ resumed, now: sandbox.clock.nowIso() }, 200);
  });
}
