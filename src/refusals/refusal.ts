/** One field's problem, as the error envelope lists it (src/http/errors.ts). */
export interface ErrorDetail {
  field: string;
  message: string;
}

/** Of a signature mismatch: what the sandbox computed from the request, never the secret. */
export interface SignatureDebug {
  header: string;
  algorithm: string;
  string_to_sign: string;
  received: string;
}

/**
 * Why a logic module declined to do what it was asked. Plain data with no HTTP status: the
 * lifecycle, the trade service, the scenario engine and authentication return one (beside a
 * trade or `undefined`), and the HTTP layer (src/http/refusal-error.ts) picks the status.
 *
 * - `not_found`: the thing named does not exist.
 * - `invalid`: the input breaks a rule (an unknown state, a duplicate order, an unknown scenario).
 * - `conflict`: the input is valid but the current state does not allow it (`allowed` lists what does).
 * - `unauthorized`: the caller could not be identified as the merchant (`signature` shows what was checked).
 * - `forced`: a scenario scripted this answer; `status` is the scenario file's own.
 */
export type RefusalKind = 'not_found' | 'invalid' | 'conflict' | 'unauthorized' | 'forced';

export class Refusal {
  readonly kind: RefusalKind;
  readonly code: string;
  readonly message: string;
  readonly details: ErrorDetail[];
  readonly allowed: string[] | undefined;
  readonly signature: SignatureDebug | undefined;
  /** Only for `forced`: the status the scenario scripted. */
  readonly status: number | undefined;
  /** Only for `forced`: the scenario that scripted it. */
  readonly scenario: string | undefined;
  /** Only for `forced`: when the caller may try again, in ms (an outage's Retry-After). */
  readonly retryAfterMs: number | undefined;

  constructor(
    kind: RefusalKind,
    code: string,
    message: string,
    options: { details?: ErrorDetail[]; allowed?: string[]; signature?: SignatureDebug; status?: number; scenario?: string; retryAfterMs?: number } = {},
  ) {
    this.kind = kind;
    this.code = code;
    this.message = message;
    this.details = options.details ?? [];
    this.allowed = options.allowed;
    this.signature = options.signature;
    this.status = options.status;
    this.scenario = options.scenario;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** The refusals the logic modules share, by kind. */
export const refuse = {
  notFound: (message: string) => new Refusal('not_found', 'not_found', message),
  invalid: (code: string, message: string, details: ErrorDetail[]) => new Refusal('invalid', code, message, { details }),
  conflict: (code: string, message: string, allowed: string[]) => new Refusal('conflict', code, message, { allowed }),
  unauthorized: (code: string, message: string, detail: ErrorDetail, signature?: SignatureDebug) =>
    new Refusal('unauthorized', code, message, { details: [detail], ...(signature !== undefined ? { signature } : {}) }),
};
