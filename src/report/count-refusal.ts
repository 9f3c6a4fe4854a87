import type { Context } from 'hono';
import type { SandboxError } from '../http/errors.js';
import type { MistakeCounter } from './mistake-counter.js';

const TRADE_PATH = /^\/api\/v1\/trades\/([^/]+)\/[^/]+$/;

/** The merchant a provider request names: in the path for get, in the JSON body for create and build. */
function merchantOf(c: Context, path: string): string {
  const get = c.req.method === 'GET' ? TRADE_PATH.exec(path) : null;
  if (get) return safeDecode(get[1]!);
  const merchant = (c.get('jsonBody') as Record<string, unknown> | undefined)?.['merchant'];
  return typeof merchant === 'string' && merchant !== '' ? merchant : '(no merchant id)';
}

/** A path segment decoded, or as sent when it is no valid percent-encoding (`%FF`). */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Called where the app renders an error (app.onError): a 401 of the provider API counts by its
 * code, a 422 by each field of its details and its code. Other errors and routes are not the
 * merchant's integration mistakes. Successful requests never come here, so they cost nothing.
 */
export function countRefusal(counter: MistakeCounter, c: Context, error: SandboxError): void {
  // The path within the request's sandbox: without the /w/<name> prefix of a workspace.
  const path = c.req.path.slice(((c.get('base') as string | undefined) ?? '').length);
  if ((error.status !== 401 && error.status !== 422) || !path.startsWith('/api/')) return;
  const merchant = merchantOf(c, path);
  if (error.status === 401) counter.unauthorized(merchant, error.code);
  else
    counter.invalid(
      merchant,
      error.code,
      error.details.map((d) => d.field),
    );
}
