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
    ...(result.unacknowledged !== undefined ? { acknowledge: result.unacknowledged } : {}),
  };
}

/** How a callback is signed, for advice: the header and what it holds (describeCallbackSignature()). */
const SANDBOX_SIGNATURE = { header: 'X-Signature', how: "hex HMAC-SHA256 of the raw body with the merchant's secret" };

/**
 * The log entry of the copy sent with a wrong signature. Refusing it is right, so only a
 * network failure is an error; accepting it (a 2xx, or the answer the profile's rule counts as
 * an acknowledgement) is flagged as a warning. `signature` names the profile's signature header
 * and what it holds (default: the sandbox's X-Signature).
 */
export function badSignatureAttempt(attempt: number, at: string, result: CallbackResponse, signature: { header: string; how: string } = SANDBOX_SIGNATURE): Attempt {
  return {
    attempt,
    kind: 'bad_signature',
    at,
    status: result.status,
    duration_ms: result.duration_ms,
    response: result.response,
    ...(result.status === null && result.error !== undefined ? { error: result.error } : {}),
    ...(result.unacknowledged !== undefined ? { acknowledge: result.unacknowledged } : {}),
    ...(result.ok
      ? {
          warning: `The receiver answered ${result.status} to a callback whose ${signature.header} is wrong. It must verify ${signature.header} (${signature.how}) and refuse callbacks that fail.`,
        }
      : {}),
  };
}

/**
 * The log entry of a scenario's bad_signature under a profile whose callbacks carry no signature
 * (`callbacks.signature: none`): there is nothing to spoil, so no copy was sent and the callback
 * goes out as normal.
 */
export function unspoiledAttempt(attempt: number, at: string, profile: string): Attempt {
  return {
    attempt,
    kind: 'bad_signature',
    at,
    status: null,
    duration_ms: 0,
    response: '',
    error: `No copy with a wrong signature was sent: the provider profile "${profile}" sends callbacks unsigned (callbacks.signature: none), so the scenario's bad_signature has no signature to spoil. The callback itself was sent as normal.`,
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
