import type { MiddlewareHandler } from 'hono';
import type { MistakeCounter } from './mistake-counter.js';

/**
 * Middleware for GET /api/v1/trades/:merchant/:uuid: after the route answered 200, tells the
 * counter which trade was read and when (for the polling rate). Mounted on that route only.
 */
export function countReads(counter: MistakeCounter, now: () => number): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.res.status !== 200) return;
    const { merchant, uuid } = c.req.param() as { merchant?: string; uuid?: string };
    if (merchant !== undefined && uuid !== undefined) counter.read(merchant, uuid, now());
  };
}
