import type { HttpBindings } from '@hono/node-server';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { matchedRoutes } from 'hono/route';
import { errors, SandboxError } from './errors.js';

/**
 * The one body reader of every route that takes a body: `jsonBody()` for JSON (then
 * `validate('json', schema)`, src/http/validation.ts, checks the fields), `textBody()` for
 * text (a scenario file) and `formBody()` for the payment page's forms. A body is bounded before it is read: a request that declares its
 * Content-Length is measured by that header, before a byte of the body is read, and one over the
 * limit is answered 413 at once whatever it declares, the connection closing instead of
 * waiting for the rest; a chunked body (no Content-Length) is counted as it arrives
 * (hono/body-limit) and cut at the limit the same way. Nothing is buffered past the limit.
 * Every other route takes no body: `noBody()`, in front of them all, refuses one past
 * `NO_BODY_LIMIT` the same way, before the route acts.
 */

/** Every admin route's body (JSON commands, a scenario file, a merchant): at most this many bytes. */
export const ADMIN_BODY_LIMIT = 256 * 1024;

/** The payment page's forms (a card's three fields, the 3-D Secure step): at most this many bytes. */
export const FORM_BODY_LIMIT = 16 * 1024;

/**
 * A route that takes no body (a reset, a list, a removal): at most this many bytes, room for the
 * `{}` or the few fields some clients send with every request, and far from anything worth reading.
 */
export const NO_BODY_LIMIT = 1024;

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

/** Context key of the parsed JSON body, for middleware that runs before the validator. */
export const JSON_BODY = 'jsonBody';
/** Context key of a text body read by textBody(). */
export const TEXT_BODY = 'textBody';

declare module 'hono' {
  interface ContextVariableMap {
    [JSON_BODY]: Record<string, unknown>;
    [TEXT_BODY]: string;
  }
}

/** Arrays and objects may nest this deep; the sandbox's bodies are flat objects. */
export const MAX_JSON_DEPTH = 32;

/** The body readers bounded() made (jsonBody(), textBody(), formBody()): a route with one among its handlers takes a body. */
const readers = new WeakSet<MiddlewareHandler>();

/**
 * Runs `read` once the body is known to fit in `limit` bytes: at once when the declared
 * Content-Length fits (`tooLarge`, a 413, when it does not), else with hono/body-limit counting
 * the bytes as `read` takes them.
 */
function bounded(limit: number, read: (c: Context, next: () => Promise<void>) => Promise<void>, tooLarge: (c: Context) => SandboxError = () => errors.tooLarge(limit)): MiddlewareHandler {
  const limiter = bodyLimit({
    maxSize: limit,
    onError: (c) => {
      throw tooLarge(c);
    },
  });
  const handler: MiddlewareHandler = async (c, next) => {
    const length = c.req.header('Content-Length');
    if (length !== undefined && /^\d+$/.test(length) && c.req.header('Transfer-Encoding') === undefined) {
      if (Number(length) > limit) throw tooLarge(c);
      return read(c, next);
    }
    // The limiter reads the whole body (at most `limit` bytes) before it calls `read`.
    let reading = true;
    try {
      await limiter(c, () => {
        reading = false;
        return read(c, next);
      });
    } catch (error) {
      if (reading && !(error instanceof SandboxError)) throw ended();
      throw error;
    }
  };
  readers.add(handler);
  return handler;
}

/**
 * Bounds the body of a request whose route takes none, in front of every route (src/app.ts): a
 * route that takes a body has a body reader among the handlers the router matched and is left
 * to it; a path no route answers is left to the 404. Anything else may carry at most `limit`
 * bytes, measured like a body reader's (the declared Content-Length, or the bytes of a chunked
 * body counted as they arrive and cut past the limit), so a reset or a removal never runs
 * behind a body it does not read. A GET or HEAD body sent chunked is refused whatever its size:
 * the Request of a GET carries no body to count.
 */
export function noBody(limit: number = NO_BODY_LIMIT): MiddlewareHandler {
  const route = (c: Context) => `${c.req.method} ${c.req.path}`;
  const drop = bounded(
    limit,
    (_c, next) => next(),
    (c) => errors.unexpectedBody(route(c), limit),
  );
  return (c, next) => {
    // The polling path: a request that declares no body at all (no Transfer-Encoding, no length
    // or 0) has nothing to refuse. Read from the Node request when there is one (HttpBindings),
    // since the web Request's headers and body are built on first use, at a cost every GET paid.
    const sent = (c.env as Partial<HttpBindings> | undefined)?.incoming?.headers;
    if (sent !== undefined && sent['transfer-encoding'] === undefined && (sent['content-length'] === undefined || sent['content-length'] === '0')) return next();
    const routes = matchedRoutes(c);
    if (routes.some((r) => readers.has(r.handler)) || !routes.some((r) => r.method !== 'ALL')) return next();
    if (c.req.raw.body === null && c.req.header('Transfer-Encoding') !== undefined) throw errors.unexpectedBody(route(c), undefined);
    return drop(c, next);
  };
}

/** The client closed the connection before the body ended: nobody reads this answer, and it is no sandbox failure to log. */
const ended = () => new HTTPException(400, { message: 'The request body ended before its declared length: the connection closed while it was being sent.' });

const mediaType = (c: Context) => (c.req.header('Content-Type') ?? '').split(';')[0]?.trim() ?? '';

/**
 * Requires a JSON object body no larger than `limit` bytes, parses it once and leaves it in the
 * context (`JSON_BODY`) for the middleware that authenticates before the validator and for
 * `validate('json', ...)`. Anything else is a 422 `invalid_json` (413 past the limit) that says
 * what to send. `lenient` is for the routes that take more (`POST /_sandbox/merchants`
 * and its sign route, which `curl -d` without a Content-Type reaches): JSON whatever the
 * Content-Type, and no body at all counts as `{}`.
 */
export function jsonBody(limit: number, options: { lenient?: boolean } = {}): MiddlewareHandler {
  return bounded(limit, async (c, next) => {
    const type = mediaType(c);
    if (!options.lenient && !JSON_TYPE.test(type)) throw wrongType(type);
    const text = await readText(c, 'JSON');
    if (options.lenient && text === '') {
      c.set(JSON_BODY, {});
      return next();
    }
    const body = parseJson(text);
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw errors.invalidJson(`The request body must be a JSON object such as {"merchant": "...", "order": "..."}; got ${body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body}.`);
    }
    c.set(JSON_BODY, body as Record<string, unknown>);
    return next();
  });
}

/**
 * Reads a UTF-8 text body (any Content-Type: `curl --data-binary @file` sends a form type) no
 * larger than `limit` bytes and leaves it in the context (`TEXT_BODY`).
 */
export function textBody(limit: number): MiddlewareHandler {
  return bounded(limit, async (c, next) => {
    c.set(TEXT_BODY, await readText(c, 'text'));
    return next();
  });
}

/**
 * Bounds a form body (application/x-www-form-urlencoded or multipart) to `limit` bytes; the
 * route's form validator then reads it (from the bytes counted here when it came chunked).
 */
export function formBody(limit: number): MiddlewareHandler {
  return bounded(limit, (_c, next) => next());
}

const wrongType = (type: string) => errors.invalidJson(`The request body must be JSON sent with "Content-Type: application/json"${type ? `; got "${type}"` : ' (the header is missing)'}.`);

/**
 * The replacement character: what a UTF-8 decoder puts where the bytes were not UTF-8. A body
 * that holds it was either not UTF-8, or was text already decoded with the wrong encoding.
 */
const REPLACEMENT = '\uFFFD';

/** The body as text, refused when it is not UTF-8 (`kind` names what was expected, for the message). */
async function readText(c: Context, kind: 'JSON' | 'text'): Promise<string> {
  // c.req.text() keeps the text in Hono's body cache for anything that reads the body again.
  let text: string;
  try {
    text = await c.req.text();
  } catch {
    throw ended();
  }
  if (text.includes(REPLACEMENT)) {
    const message = `The request body is not valid UTF-8 (or it holds U+FFFD, the replacement character that marks text decoded with the wrong encoding). Send the ${kind === 'JSON' ? 'JSON' : 'file'} as UTF-8 text (other encodings such as Windows-1251 are not accepted).`;
    throw kind === 'JSON' ? errors.invalidJson(message) : new SandboxError(422, 'invalid_body', message, { details: [{ field: 'body', message }] });
  }
  return text;
}

/** Parses a JSON body: empty, malformed, too deep or with a key written twice is a 422 `invalid_json`. */
function parseJson(text: string): unknown {
  if (text.trim() === '') throw errors.invalidJson('The request body is empty. Send a JSON object with "Content-Type: application/json".');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw errors.invalidJson(`The request body is not valid JSON (${(error as Error).message}). Check quotes, commas and brackets.`);
  }
  const keys = countKeys(body, MAX_JSON_DEPTH);
  if (keys === undefined) {
    throw errors.invalidJson(`The request body nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep. Send a flat JSON object of strings and numbers.`);
  }
  // JSON.parse keeps one copy of a key written twice in one object: fewer keys parsed than written means a duplicate.
  const twice = keys === keysWritten(text) ? undefined : duplicateKey(text);
  if (twice !== undefined) {
    const message = `The request body names the field ${JSON.stringify(twice)} more than once. Send each field once: JSON parsers disagree on which copy wins, so the sandbox does not guess.`;
    throw new SandboxError(422, 'invalid_json', message, { details: [{ field: twice, message: 'appears more than once' }] });
  }
  return body;
}

/** The first key that appears twice in one object of `json` (valid JSON text), if any. */
function duplicateKey(json: string): string | undefined {
  const objects: Array<Set<string> | null> = [];
  for (let i = 0; i < json.length; i++) {
    const char = json[i];
    if (char === '{') objects.push(new Set());
    else if (char === '[') objects.push(null);
    else if (char === '}' || char === ']') objects.pop();
    else if (char === '"') {
      const start = i;
      let escaped = false;
      for (i++; json[i] !== '"'; i++) {
        if (json[i] === '\\') {
          escaped = true;
          i++;
        }
      }
      let next = i + 1;
      while (json[next] === ' ' || json[next] === '\t' || json[next] === '\n' || json[next] === '\r') next++;
      const keys = objects.at(-1);
      if (json[next] !== ':' || !keys) continue;
      const key = escaped ? (JSON.parse(json.slice(start, i + 1)) as string) : json.slice(start + 1, i);
      if (keys.has(key)) return key;
      keys.add(key);
    }
  }
  return undefined;
}

/**
 * The keys of every object in `value` (parsed JSON), or undefined when arrays or objects nest
 * more than `limit` levels deep (checked without recursion).
 */
function countKeys(value: unknown, limit: number): number | undefined {
  let keys = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [node, depth] = item;
    if (node === null || typeof node !== 'object') continue;
    if (depth > limit) return undefined;
    const children = Array.isArray(node) ? node : Object.values(node);
    if (!Array.isArray(node)) keys += children.length;
    for (const child of children) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return keys;
}

/** How many keys `json` (valid JSON text) writes: strings followed by a colon. */
function keysWritten(json: string): number {
  let keys = 0;
  for (let open = json.indexOf('"'); open !== -1; open = json.indexOf('"', open + 1)) {
    let close = json.indexOf('"', open + 1);
    while (close !== -1 && escaped(json, close)) close = json.indexOf('"', close + 1);
    if (close === -1) break;
    let next = close + 1;
    while (json[next] === ' ' || json[next] === '\t' || json[next] === '\n' || json[next] === '\r') next++;
    if (json[next] === ':') keys++;
    open = close;
  }
  return keys;
}

/** True when the quote at `index` is escaped: an odd number of backslashes before it. */
function escaped(json: string, index: number): boolean {
  let backslashes = 0;
  for (let i = index - 1; json[i] === '\\'; i--) backslashes++;
  return backslashes % 2 === 1;
}
