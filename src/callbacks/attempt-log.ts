import type { CallbackResponse } from './callback-sender.js';
import type { Attempt } from '../store/callback-records.js';

/** The log entry of a request that was sent (or tried): a delivery or a duplicate. */
export function sentAttempt(attempt: number, kind: 'delivery' | 'duplicate', at: string, result: CallbackResponse): Attempt {
  return {
    attempt,
    kind,
    at,
    status: result.status,
    duration_ms: result.duration_ms,
    response: result.response,
    ...(result.error !== undefined ? { error: result.error } : {}),
  };
}

/**
 * The log entry of the copy sent with a wrong X-Signature. Refusing it is right, so only a
 * network failure is an error; accepting it (2xx) is flagged as a warning.
 */
export function badSignatureAttempt(attempt: number, at: string, result: CallbackResponse): Attempt {
  return {
    attempt,
    kind: 'bad_signature',
    at,
    status: result.status,
    duration_ms: result.duration_ms,
    response: result.response,
    ...(result.status === null && result.error !== undefined ? { error: result.error } : {}),
    ...(result.ok
      ? {
          warning: `The receiver answered ${result.status} to a callback whose X-Signature is wrong. It must verify X-Signature (hex HMAC-SHA256 of the raw body with the merchant's secret) and refuse callbacks that fail.`,
        }
      : {}),
  };
}

/** The log entry of an attempt a scenario's `fail_first` swallowed (nothing sent). */
export function simulatedAttempt(attempt: number, at: string, failFirst: number, scenario: string | undefined): Attempt {
  const who = scenario ? `scenario ${JSON.stringify(scenario)}` : 'the scenario';
  return {
    attempt,
    kind: 'simulated',
    at,
    status: null,
    duration_ms: 0,
    response: '',
    error: `Simulated failure ${attempt} of ${failFirst}: ${who} fails the first ${failFirst} attempts (fail_first), so nothing was sent.`,
  };
}

/** The log entry of an attempt that could not be signed (the merchant left the fixtures). */
export function unsignedAttempt(attempt: number, at: string, merchant: string): Attempt {
  return {
    attempt,
    kind: 'delivery',
    at,
    status: null,
    duration_ms: 0,
    response: '',
    error: `Merchant ${merchant} is not in the fixtures any more, so the callback cannot be signed and was not sent. Restore the merchant in the fixtures file.`,
  };
}
