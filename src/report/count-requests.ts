import type { MiddlewareHandler } from 'hono';
import { SandboxError } from '../errors.js';
import type { MistakeCounter } from './mistake-counter.js';

const TRADE_PATH = /^\/api\/v1\/trades\/([^/]+)\/([^/]+)$/;
const UNKNOWN = '(no merchant id)';

interface Envelope {
  code: string;
  fields: string[];
}

/** The error of an answer: the thrown SandboxError, else the envelope in the body. */
async function envelopeOf(error: unknown, res: Response): Promise<Envelope | undefined> {
  if (error instanceof SandboxError) return { code: error.code, fields: error.details.map((d) => d.field) };
  try {
    const body = (await res.clone().json()) as { error?: { code?: unknown; details?: Array<{ field?: unknown }> } };
    if (typeof body.error?.code !== 'string') return undefined;
    return { code: body.error.code, fields: (body.error.details ?? []).map((d) => String(d.field ?? 'body')) };
  } catch {
    return undefined;
  }
}

/** The merchant a provider request names: in the path for get, in the JSON body for create and build. */
async function merchantOf(c: Parameters<MiddlewareHandler>[0], get: RegExpExecArray | null): Promise<string> {
  if (get) return decodeURIComponent(get[1]!);
  const parsed = c.get('jsonBody') as Record<string, unknown> | undefined;
  const body = parsed ?? (await c.req.json().catch(() => undefined) as Record<string, unknown> | undefined);
  const merchant = body && typeof body === 'object' ? body['merchant'] : undefined;
  return typeof merchant === 'string' && merchant !== '' ? merchant : UNKNOWN;
}

/**
 * Middleware on the provider API that tells the counter what the HTTP layer decided: 401s by
 * cause, 422s by field and code, and each successful read of a trade (for the polling rate).
 * Runs after the route; a successful create costs one status comparison.
 */
export function countRequests(counter: MistakeCounter, now: () => number): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const status = c.res.status;
    const get = c.req.method === 'GET' ? TRADE_PATH.exec(c.req.path) : null;
    if (status < 400) {
      if (get && status === 200) counter.read(decodeURIComponent(get[1]!), decodeURIComponent(get[2]!), now());
      return;
    }
    if (status !== 401 && status !== 422) return;
    const envelope = await envelopeOf(c.error, c.res);
    if (!envelope) return;
    const merchant = await merchantOf(c, get);
    if (status === 401) counter.unauthorized(merchant, envelope.code);
    else counter.invalid(merchant, envelope.code, envelope.fields);
  };
}
