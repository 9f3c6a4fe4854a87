import type { MiddlewareHandler } from 'hono';
import type { SandboxEnv } from '../http/sandbox-env.js';

/**
 * Middleware for GET /api/v1/trades/:merchant/:uuid: after the route answered 200, tells the
 * request's sandbox's counter which trade was read and when, in real time (sustained polling is
 * noted as advice; reading is never a mistake). Mounted on that route only.
 */
export const countReads: MiddlewareHandler<SandboxEnv> = async (c, next) => {
  await next();
  if (c.res.status !== 200) return;
  const { merchant, uuid } = c.req.param() as { merchant?: string; uuid?: string };
  const sandbox = c.get('sandbox');
  if (merchant !== undefined && uuid !== undefined) sandbox.report.read(merchant, uuid, Date.now());
};
