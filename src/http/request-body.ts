import { zValidator } from '@hono/zod-validator';
import type { MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { jsonBody, textBody } from './body.js';
import { validate } from './validation.js';

/**
 * The request body of a route declaration (`request.body` of createRoute(), src/http/resource-app.ts):
 * what /openapi.json says of it and what the route's handler may read (`c.req.valid('json')`), and
 * the body reader of src/http/body.ts that reads it, which the route runs in place of
 * @hono/zod-openapi's own validator of the body.
 */

/** Validation failures of a form, for the route's hook (a page); the app's defaultHook when the route gives none. */
// biome-ignore lint/suspicious/noExplicitAny: the hook of any route, whatever its input
export type FormHook = (result: { success: boolean }, c: any) => unknown;

/**
 * How a route reads its body: `read` runs before the route's own middleware (which may look at
 * the body, as the provider's authentication does), `check` after it, just before the handler.
 */
export interface BodyReader {
  read?: MiddlewareHandler;
  check?: (hook: FormHook | undefined) => MiddlewareHandler;
}

const readers = new WeakMap<object, BodyReader>();

/** The reader of a body declared with jsonRequest(), yamlRequest() or formRequest(). */
export function bodyReaderOf(body: object): BodyReader | undefined {
  return readers.get(body);
}

/**
 * Request bodies are listed under concrete media types only: a client sends a listed type as it
 * is written, and `application/*+json` is a range, not a type. jsonBody() also reads any
 * application/<name>+json type as JSON, which the note says.
 */
const JSON_REQUEST_NOTE = 'Sent as application/json, or as any application/<name>+json type (for example application/vnd.api+json), with or without a charset; other types are a 422.';
const ANY_TYPE_JSON_NOTE = 'JSON, read as JSON whatever the Content-Type (application/json, text/plain, or the form type curl -d sends); no body at all counts as {}.';
const YAML_REQUEST_NOTE = ' in YAML (UTF-8), read as YAML whatever the Content-Type (text/yaml, text/plain, or the form type curl --data-binary sends work too); JSON, being YAML, is read too.';

/**
 * A JSON object body of at most `limit` bytes, checked with `schema`: read and parsed once by
 * jsonBody(), then validated by validate('json', schema). `lenient`: JSON whatever the
 * Content-Type, and no body at all counts as `{}` (see jsonBody).
 */
export function jsonRequest<T extends z.ZodType>(schema: T, limit: number, options: { lenient?: boolean } = {}) {
  const body = { required: true, description: options.lenient ? ANY_TYPE_JSON_NOTE : JSON_REQUEST_NOTE, content: { 'application/json': { schema } } };
  const check = validate('json', schema);
  readers.set(body, { read: jsonBody(limit, options), check: () => check });
  return body;
}

/** A YAML body of this shape (a scenario file) of at most `limit` bytes, read as text by textBody() for the handler to parse. */
export function yamlRequest<T extends z.ZodType>(schema: T, limit: number, what = 'A scenario file') {
  const body = { required: true, description: `${what}${YAML_REQUEST_NOTE}`, content: { 'application/yaml': { schema } } };
  readers.set(body, { read: textBody(limit) });
  return body;
}

/**
 * A form (application/x-www-form-urlencoded) of this shape, read by the form validator with the
 * route's hook; the bound of FORM_BODY_LIMIT bytes is the app's, in front of every payment page route.
 */
export function formRequest<T extends z.ZodType>(schema: T) {
  const body = { required: false, content: { 'application/x-www-form-urlencoded': { schema } } };
  readers.set(body, { check: (hook) => zValidator('form', schema, hook as never) });
  return body;
}
