import type { ErrorDetail, SignatureDebug } from '../refusals/refusal.js';
import type { WriteFailedError } from '../store/write-failed-error.js';

export type { ErrorDetail, SignatureDebug } from '../refusals/refusal.js';

/**
 * One error type, one envelope, rendered in one place (`app.onError`).
 *
 *   {"error":{"status":422,"code":"validation_failed","message":"...","details":[{"field":"amount_cents","message":"..."}]}}
 */
export interface ErrorEnvelope {
  error: {
    status: number;
    code: string;
    message: string;
    details: ErrorDetail[];
    /** Present on signature mismatches only: what the sandbox computed, never the secret. */
    signature?: SignatureDebug;
    /** Present on admin 409s: the states the trade may move to. */
    allowed?: string[];
  };
}

export class SandboxError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetail[];
  readonly extra: Pick<ErrorEnvelope['error'], 'signature' | 'allowed'>;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    options: {
      details?: ErrorDetail[];
      extra?: SandboxError['extra'];
      headers?: Record<string, string>;
    } = {},
  ) {
    // A refusal is an answer to the client, named by its code and message: it takes no stack
    // trace, which nobody reads (a busy sandbox refuses many).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'SandboxError';
    this.status = status;
    this.code = code;
    this.details = options.details ?? [];
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }

  toJSON(): ErrorEnvelope {
    return {
      error: {
        status: this.status,
        code: this.code,
        message: this.message,
        details: this.details,
        ...this.extra,
      },
    };
  }
}

export const errors = {
  validation(message: string, details: ErrorDetail[]): SandboxError {
    return new SandboxError(422, 'validation_failed', message, { details });
  },
  invalidJson(message: string): SandboxError {
    return new SandboxError(422, 'invalid_json', message, { details: [{ field: 'body', message }] });
  },
  notFound(message: string): SandboxError {
    return new SandboxError(404, 'not_found', message);
  },
  conflict(code: string, message: string, allowed?: string[]): SandboxError {
    return new SandboxError(409, code, message, allowed ? { extra: { allowed } } : {});
  },
  /**
   * A change refused because the data folder could not be written (nothing was saved or
   * changed). Disk full: 507 Insufficient Storage on the admin API; 503 Service Unavailable
   * with Retry-After elsewhere, the status a merchant's client already retries, because the
   * provider's document has no status for an outage and it is not the merchant's mistake
   * (a 4xx would say it is). Other write failures: 503 `storage_error`.
   */
  storage(error: WriteFailedError, admin: boolean): SandboxError {
    const full = error.kind === 'full';
    const status = full && admin ? 507 : 503;
    return new SandboxError(status, full ? 'storage_full' : 'storage_error', error.message, { headers: { 'Retry-After': '5' } });
  },
  /** A change refused because the request's workspace was removed (or the sandbox stopped) while the request ran. */
  workspaceRemoved(name: string): SandboxError {
    return new SandboxError(
      409,
      'workspace_removed',
      `Workspace ${JSON.stringify(name)} was removed (DELETE /w/${name}/_sandbox, or --workspace-ttl) or the sandbox stopped while this request was running: nothing it changed was saved, and a workspace created since under that name was not touched. Send the request again to make it in the workspace as it is now.`,
    );
  },
  tooLarge(limit: number): SandboxError {
    // Connection: close: the rest of the body is never read, so the connection cannot carry another request.
    return new SandboxError(413, 'body_too_large', `The request body is larger than ${limit} bytes. Send a smaller JSON body.`, { headers: { Connection: 'close' } });
  },
  /**
   * A body sent to a route that reads none (`route` is its method and path), past `limit` bytes;
   * `limit` undefined: a GET or HEAD body sent chunked, refused whatever its size.
   */
  unexpectedBody(route: string, limit: number | undefined): SandboxError {
    const why = limit === undefined ? 'and a GET or HEAD body sent chunked (without Content-Length) is refused whatever its size' : `and this one is larger than ${limit} bytes`;
    return new SandboxError(413, 'body_too_large', `${route} takes no request body, ${why}. Send the request without a body (an empty one, or {}, is fine).`, { headers: { Connection: 'close' } });
  },
};
