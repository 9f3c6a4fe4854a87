import type { Context } from 'hono';
import type { SandboxError } from '../http/errors.js';
import { SCENARIO_HEADER } from '../scenarios/scenario.js';
// Up into report/ on purpose: the counting is report's logic, HTTP-free; this hook is its HTTP side.
import { CLIENT_HEADER, DASHBOARD_CLIENT, DELIBERATE_HEADER } from './dashboard-client.js';
import type { MistakeCounter } from './mistake-counter.js';

const TRADE_PATH = /^\/api\/v1\/trades\/([^/]+)\/[^/]+$/;

/** The merchant a provider request names: in the path for get, in the JSON body for create and build. */
function merchantOf(c: Context, path: string, body: Record<string, unknown> | undefined): string {
  const get = c.req.method === 'GET' ? TRADE_PATH.exec(path) : null;
  if (get) return safeDecode(get[1]!);
  const merchant = body?.['merchant'];
  return typeof merchant === 'string' && merchant !== '' ? merchant : '(no merchant id)';
}

/** A path segment decoded, or as sent when it is not valid percent-encoding (never a URIError). */
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
 * merchant's integration mistakes, nor is an answer a scenario forced (sbx-unauth-, sbx-reject-...)
 * or a request marked X-Sandbox-Deliberate (the merchant asked for it; it still counts as met for
 * the coverage), nor a request of the
 * dashboard's own forms. Successful requests never come here, so they cost nothing.
 */
export function countRefusal(counter: MistakeCounter, c: Context, error: SandboxError): void {
  // The path within the request's sandbox: without the /w/<name> prefix of a workspace.
  const path = c.req.path.slice(((c.get('base') as string | undefined) ?? '').length);
  if ((error.status !== 401 && error.status !== 422) || !path.startsWith('/api/')) return;
  if (c.req.header(CLIENT_HEADER) === DASHBOARD_CLIENT) return;
  const body = c.get('jsonBody') as Record<string, unknown> | undefined;
  const order = body?.['order'];
  counter.refused(merchantOf(c, path, body), {
    status: error.status,
    code: error.code,
    fields: error.details.map((d) => d.field),
    order: typeof order === 'string' ? order : undefined,
    create: c.req.method === 'POST',
    // Asked for: by a scenario (sbx-unauth-, sbx-reject-...), or by the test itself (X-Sandbox-Deliberate).
    forced: error.headers[SCENARIO_HEADER] !== undefined || c.req.header(DELIBERATE_HEADER) !== undefined,
  });
}
