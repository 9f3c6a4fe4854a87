import type { Context, MiddlewareHandler } from 'hono';
import type { SandboxError } from '../http/errors.js';
import type { SandboxEnv } from '../http/sandbox-env.js';
import { DEFAULT_ERROR_BODY } from '../profile/default-error-body.js';
import { renderErrorBody } from '../profile/render-error-body.js';

/** The statuses of the three endpoints whose body the profile's `errors.body` shapes. */
const SHAPED = new Set([401, 404, 422]);

/**
 * Marks a request to the three endpoints of the interface document, whose errors answer in the
 * provider profile's shape. Set by their routes (src/api/provider.ts) before anything can refuse.
 */
export const PROVIDER_ERRORS = 'providerErrors';

export const markProviderRequest: MiddlewareHandler<SandboxEnv> = (c, next) => {
  c.set(PROVIDER_ERRORS, true);
  return next();
};

/**
 * The body of a provider endpoint's 401, 404 or 422 under the request's profile: its
 * `errors.body` template filled in; undefined (the sandbox's envelope, with its diagnostics) when
 * the profile keeps the sandbox's template, and for every other route and status (the admin API
 * and the pages always answer in the envelope).
 */
export function providerErrorBody(c: Context, error: SandboxError): string | undefined {
  const env = c as Context<SandboxEnv>;
  if (env.get(PROVIDER_ERRORS) !== true || !SHAPED.has(error.status)) return undefined;
  const template = env.get('sandbox').profile.errors.body;
  if (template === DEFAULT_ERROR_BODY) return undefined;
  return renderErrorBody(template, { status: error.status, code: error.code, message: error.message, details: error.details });
}
