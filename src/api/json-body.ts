import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { errors } from '../errors.js';

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * Requires a JSON object body no larger than `limit` bytes, parses it once and leaves it
 * in Hono's body cache for the validator. Anything else is a 422 (413 past the limit)
 * that says what to send.
 */
export function jsonBody(limit: number): MiddlewareHandler {
  const limiter = bodyLimit({
    maxSize: limit,
    onError: () => {
      throw errors.tooLarge(limit);
    },
  });
  // bodyLimit wraps the body in a web stream just to count it, which costs more than the
  // rest of a create request: when the request states its Content-Length, check that instead.
  const checked: MiddlewareHandler = async (c, next) => {
    const length = c.req.header('Content-Length');
    if (length === undefined || !/^\d+$/.test(length) || c.req.header('Transfer-Encoding') !== undefined) return limiter(c, next);
    if (Number(length) > limit) throw errors.tooLarge(limit);
    await next();
  };
  return async (c, next) =>
    checked(c, async () => {
      const type = (c.req.header('Content-Type') ?? '').split(';')[0]?.trim() ?? '';
      if (!JSON_TYPE.test(type)) {
        throw errors.invalidJson(
          `The request body must be JSON sent with "Content-Type: application/json"${type ? `; got "${type}"` : ' (the header is missing)'}.`,
        );
      }
      const body = await readJson(c);
      if (body === null || typeof body !== 'object' || Array.isArray(body)) {
        throw errors.invalidJson(`The request body must be a JSON object such as {"merchant": "...", "order": "..."}; got ${body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body}.`);
      }
      await next();
    });
}

async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') throw errors.invalidJson('The request body is empty. Send a JSON object with "Content-Type: application/json".');
  try {
    return await c.req.json();
  } catch (error) {
    throw errors.invalidJson(`The request body is not valid JSON (${(error as Error).message}). Check quotes, commas and brackets.`);
  }
}
