import { ADMIN_BODY_LIMIT, NO_BODY_LIMIT } from '../http/body.js';
import { errorEnvelopeSchema } from './error-envelope.js';

/**
 * What route declarations share, written once: a JSON answer of a schema, an answer in the error
 * envelope, the admin token's 401, a body over its limit, the browser protections' 403, an HTML
 * page, and the sentences several descriptions hold.
 */

/** A JSON answer of this shape. */
export const answer = <T>(description: string, schema: T) => ({ description, content: { 'application/json': { schema } } });

/** An error answer (the envelope of src/http/errors.ts) with this description. */
export const error = (description: string) => answer(description, errorEnvelopeSchema);

/** An HTML page. */
export const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' as const } } } });

/** The 422 of a JSON body, the start of its description. */
export const BODY_422 = 'The body is not valid: not JSON, not an object, or a field is wrong (`error.details` names each field).';

/** Said of the admin routes whose workspaces differ most (scenarios, merchants). */
export const EVERY_WORKSPACE = 'Every /_sandbox route also works under /w/{name}/_sandbox for workspace {name}.';

/** Every admin route when the sandbox runs with --admin-token. */
export const ADMIN_401 = error('The sandbox runs with --admin-token and the request has no valid `Authorization: Bearer <token>` (code admin_token_required).');

/** A body over `limit` bytes (the limits are src/http/body.ts's and the provider's in src/trades/requests.ts). */
export const TOO_LARGE = (limit: number, what = 'body') => error(`The ${what} is larger than ${limit} bytes.`);

/** An admin route's body over ADMIN_BODY_LIMIT. */
export const ADMIN_TOO_LARGE = TOO_LARGE(ADMIN_BODY_LIMIT);

/** Any route that takes no body, when one comes anyway (src/http/body.ts, noBody): added to each by the document. */
export const NO_BODY_413 = error(`The route takes no body, and one came larger than ${NO_BODY_LIMIT} bytes (or a GET or HEAD body sent chunked, whatever its size); the route did nothing.`);

/** Any route: the browser protections of src/security (README, "Security and limits"); added to each by the document. */
export const GUARD_403 = error(
  "A browser protection refused the request: a Host header that is neither a loopback name nor the public URL's host (DNS rebinding, host_not_allowed), a write sent by a page of another site (cross_site_request), or a cross-origin preflight (cross_origin_refused).",
);
