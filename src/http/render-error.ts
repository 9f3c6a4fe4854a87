import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { WriteFailedError } from '../store/write-failed-error.js';
import { errors, SandboxError } from './errors.js';

export interface RenderErrorOptions {
  /** Turns an error of a lower layer into its envelope (e.g. a write refused because the workspace was removed), or undefined. */
  translate?: (error: unknown) => SandboxError | undefined;
  /** Told of every SandboxError answered (the integration report counts the merchant's mistakes). */
  onRefusal?: (c: Context, error: SandboxError) => void;
  /** The body of a SandboxError in another shape than the envelope (a provider profile's errors.body), or undefined for the envelope. */
  shape?: (c: Context, error: SandboxError) => string | undefined;
  /** Told of an error nobody expected: a sandbox bug, answered 500 `internal_error`. */
  onBug: (c: Context, error: unknown) => void;
}

/**
 * The one place an error becomes an answer (`app.onError`): a SandboxError as its envelope
 * with its status and headers; a failed write as 503 (507 on the admin API when the disk is
 * full); a framework HTTPException (a body cut short, too large) in the envelope; anything else
 * as 500 `internal_error`, after `onBug`.
 */
export function renderError(options: RenderErrorOptions): ErrorHandler {
  return (thrown, c) => {
    const error = options.translate?.(thrown) ?? thrown;
    if (error instanceof SandboxError) {
      options.onRefusal?.(c, error);
      const shaped = options.shape?.(c, error);
      if (shaped !== undefined) return c.body(shaped, error.status as 400, { ...error.headers, 'Content-Type': 'application/json' });
      return c.json(error.toJSON(), error.status as 400, error.headers);
    }
    if (error instanceof WriteFailedError) {
      const admin = c.req.path.startsWith('/_sandbox') || c.req.path.includes('/_sandbox/');
      const refused = errors.storage(error, admin);
      return c.json(refused.toJSON(), refused.status as 503, refused.headers);
    }
    if (error instanceof HTTPException) {
      const wrapped = new SandboxError(error.status, error.status === 413 ? 'body_too_large' : 'bad_request', error.message || 'The request could not be read.');
      return c.json(wrapped.toJSON(), error.status);
    }
    options.onBug(c, error);
    const internal = new SandboxError(500, 'internal_error', 'The sandbox failed while handling this request; this is a sandbox bug, not your mistake. The details are in the sandbox log.');
    return c.json(internal.toJSON(), 500);
  };
}
