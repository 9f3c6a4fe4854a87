import { SandboxError } from './errors.js';
import { Refusal, type RefusalKind } from '../refusals/refusal.js';
import { SCENARIO_HEADER } from '../scenarios/scenario.js';

/** The HTTP status of each kind of refusal; a forced one carries its scenario's own. */
const STATUS: Record<Exclude<RefusalKind, 'forced'>, number> = {
  not_found: 404,
  invalid: 422,
  conflict: 409,
  unauthorized: 401,
};

/** The error envelope of a refusal, with the status the HTTP layer gives its kind. */
export function refusalError(refusal: Refusal): SandboxError {
  const status = refusal.kind === 'forced' ? (refusal.status ?? 500) : STATUS[refusal.kind];
  return new SandboxError(status, refusal.code, refusal.message, {
    details: refusal.details,
    extra: {
      ...(refusal.allowed !== undefined ? { allowed: refusal.allowed } : {}),
      ...(refusal.signature !== undefined ? { signature: refusal.signature } : {}),
    },
    headers: {
      ...(refusal.scenario !== undefined ? { [SCENARIO_HEADER]: refusal.scenario } : {}),
      ...(refusal.retryAfterMs !== undefined ? { 'Retry-After': String(Math.ceil(refusal.retryAfterMs / 1000)) } : {}),
    },
  });
}

/** The value, or the refusal thrown as its error envelope (rendered by app.onError). */
export function orRefuse<T>(result: T | Refusal): T {
  if (result instanceof Refusal) throw refusalError(result);
  return result;
}
