import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { errors, SandboxError } from '../errors.js';

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
  /** Reads, checks and parses the body, then runs the rest of the chain. */
  const parse = async (c: Context, next: () => Promise<void>): Promise<void> => {
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
    c.set(JSON_BODY, body as Record<string, unknown>);
    return next();
  };
  // bodyLimit wraps the body in a web stream just to count it, which costs more than the
  // rest of a create request: when the request states its Content-Length, check that instead.
  return (c, next) => {
    const length = c.req.header('Content-Length');
    if (length === undefined || !/^\d+$/.test(length) || c.req.header('Transfer-Encoding') !== undefined) {
      return limiter(c, () => parse(c, next));
    }
    if (Number(length) > limit) throw errors.tooLarge(limit);
    return parse(c, next);
  };
}

/** Context key of the parsed body, for middleware that runs before the validator. */
export const JSON_BODY = 'jsonBody';

declare module 'hono' {
  interface ContextVariableMap {
    [JSON_BODY]: Record<string, unknown>;
  }
}

/** Arrays and objects may nest this deep; the sandbox's bodies are flat objects. */
export const MAX_JSON_DEPTH = 32;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The raw body the server already read (see server.ts), else the request's own. */
async function bodyBytes(c: Context): Promise<Uint8Array | ArrayBuffer> {
  const raw = (c.env as { incoming?: { rawBody?: unknown } } | undefined)?.incoming?.rawBody;
  return raw instanceof Uint8Array ? raw : c.req.arrayBuffer();
}

async function readJson(c: Context): Promise<unknown> {
  let text: string;
  try {
    text = UTF8.decode(await bodyBytes(c));
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw errors.invalidJson('The request body is not valid UTF-8. Send the JSON as UTF-8 text (other encodings such as Windows-1251 are not accepted).');
  }
  // The validator reads the body again through c.req.json(): hand it the checked text
  // (Hono keeps each body cache entry as a promise, whatever its type says).
  (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(text);
  if (text.trim() === '') throw errors.invalidJson('The request body is empty. Send a JSON object with "Content-Type: application/json".');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw errors.invalidJson(`The request body is not valid JSON (${(error as Error).message}). Check quotes, commas and brackets.`);
  }
  if (nestedDeeperThan(body, MAX_JSON_DEPTH)) {
    throw errors.invalidJson(`The request body nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep. Send a flat JSON object of strings and numbers.`);
  }
  const twice = duplicateKey(text);
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

/** True when `value` has arrays or objects nested more than `limit` levels deep (checked without recursion). */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [node, depth] = item;
    if (node === null || typeof node !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
