import type { Context } from 'hono';
import type { SandboxError } from '../errors.js';
import { SCENARIO_HEADER } from '../scenarios/scenario.js';
import type { MistakeCounter } from './mistake-counter.js';

const TRADE_PATH = /^\/api\/v1\/trades\/([^/]+)\/[^/]+$/;

/** The merchant a provider request names: in the path for get, in the JSON body for create and build. */
function merchantOf(c: Context): string {
  const get = c.req.method === 'GET' ? TRADE_PATH.exec(c.req.path) : null;
  if (get) return decodeURIComponent(get[1]!);
  const merchant = (c.get('jsonBody') as Record<string, unknown> | undefined)?.['merchant'];
  return typeof merchant === 'string' && merchant !== '' ? merchant : '(no merchant id)';
}

/**
 * Called where the app renders an error (app.onError): a 401 of the provider API counts by its
 * code, a 422 by each field of its details and its code. Other errors and routes are not the
 * merchant's integration mistakes, nor is an answer a scenario forced (sbx-unauth-, sbx-reject-...:
 * the merchant asked for it). Successful requests never come here, so they cost nothing.
 */
export function countRefusal(counter: MistakeCounter, c: Context, error: SandboxError): void {
  if ((error.status !== 401 && error.status !== 422) || !c.req.path.startsWith('/api/')) return;
  if (error.headers[SCENARIO_HEADER] !== undefined) return;
  const merchant = merchantOf(c);
  if (error.status === 401) counter.unauthorized(merchant, error.code);
  else
    counter.invalid(
      merchant,
      error.code,
      error.details.map((d) => d.field),
    );
}
