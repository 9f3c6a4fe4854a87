import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { formatDuration } from '../clock/duration.js';
import { acknowledges } from '../profile/acknowledges.js';
import type { Acknowledgement } from '../profile/profile-schema.js';
import { acknowledgingAnswer } from './acknowledging-answer.js';
import { Limiter } from './limiter.js';
import type { SendBarrier } from './send-barrier.js';

/** How much of a receiver's answer is read and logged; the connection is dropped past it. */
export const MAX_RESPONSE_BYTES = 1024;

/** Deliveries in flight at once, over every trade. */
export const DEFAULT_MAX_IN_FLIGHT = 512;

export interface CallbackRequest {
  url: string;
  body: string;
  /** Extra headers (signature, event id, attempt); Content-Type and Content-Length are set here. */
  headers: Record<string, string>;
  timeoutMs: number;
  /** Send together with the other requests of this barrier: the last body byte waits until all are on the wire. */
  barrier?: SendBarrier;
  /** Called once the whole request has been handed to the connection (before any answer). */
  onSent?: () => void;
  /**
   * Which complete answer acknowledges the callback (the profile's `callbacks.acknowledge`,
   * src/profile/acknowledges.ts); default `2xx`. A 2xx that the rule does not count is a failed
   * attempt whose error is the rule's reason.
   */
  acknowledge?: Acknowledgement;
}

export interface CallbackResponse {
  /** A complete answer that acknowledges the callback (a 2xx, or its first 1 KiB, under `2xx`) arrived within the timeout. */
  ok: boolean;
  status: number | null;
  /** The first 1 KiB of the answer body, as UTF-8 text. */
  response: string;
  duration_ms: number;
  /** Why the attempt did not count, in words a receiver's developer can act on. */
  error?: string;
  /** The sandbox itself stopped the attempt (it is shutting down); not the receiver's fault. */
  aborted?: boolean;
  /** Set when a complete 2xx answer did not acknowledge the callback under this rule (`error` says why). */
  unacknowledged?: Exclude<Acknowledgement, '2xx'>;
}

/** The User-Agent of every callback request. */
export const USER_AGENT = 'deposit-sandbox-callbacks/1';

const STOPPED = { error: 'The sandbox stopped this attempt while it was in flight (shutdown or reset).', aborted: true } as const;

/**
 * Sends callback POSTs with node:http / node:https over keep-alive agents. Never follows
 * redirects, reads at most 1 KiB of an answer and then drops the connection, aborts at the
 * timeout, and calls only http(s) URLs. Every outcome resolves (never rejects) with what happened.
 */
export class CallbackSender {
  readonly #limiter: Limiter;
  readonly #http = new http.Agent({ keepAlive: true, scheduling: 'lifo' });
  readonly #https = new https.Agent({ keepAlive: true, scheduling: 'lifo' });
  /** Aborts of the requests on the wire. */
  readonly #inFlight = new Set<() => void>();

  constructor(maxInFlight = DEFAULT_MAX_IN_FLIGHT) {
    this.#limiter = new Limiter(maxInFlight);
  }

  /** Deliveries on the wire now and waiting for a slot. */
  get load(): { running: number; waiting: number } {
    return { running: this.#limiter.running, waiting: this.#limiter.waiting };
  }

  send(request: CallbackRequest): Promise<CallbackResponse> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return Promise.resolve(refused(`${JSON.stringify(request.url)} is not an absolute URL; nothing was sent.`));
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return Promise.resolve(refused(`The sandbox only calls http and https URLs; ${url.protocol} URLs are never called. Nothing was sent.`));
    }
    return this.#limiter.run(() => this.#post(url, request));
  }

  /** Aborts every delivery in flight; they resolve with `aborted: true`. */
  abortAll(): void {
    for (const abort of [...this.#inFlight]) abort();
    this.#inFlight.clear();
  }

  /** Aborts every delivery in flight and closes the kept-alive connections. */
  close(): void {
    this.abortAll();
    this.#http.destroy();
    this.#https.destroy();
  }

  #post(url: URL, request: CallbackRequest): Promise<CallbackResponse> {
    const started = performance.now();
    return new Promise<CallbackResponse>((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let status: number | null = null;
      let location: string | undefined;
      let settled = false;

      let arrived = false;
      const arrive = () => {
        if (arrived || !request.barrier) return undefined;
        arrived = true;
        return request.barrier.arrive();
      };
      const finish = (outcome: { error?: string; aborted?: boolean }) => {
        if (settled) return;
        settled = true;
        void arrive(); // a request that failed before its barrier must not hold the others
        clearTimeout(timer);
        this.#inFlight.delete(abort);
        const response = Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8');
        const duration_ms = Math.round(performance.now() - started);
        if (outcome.error !== undefined) {
          resolve({ ok: false, status, response, duration_ms, error: outcome.error, ...(outcome.aborted ? { aborted: true } : {}) });
          return;
        }
        const verdict = judge(status, location);
        if (verdict !== undefined) {
          resolve({ ok: false, status, response, duration_ms, error: verdict });
          return;
        }
        const rule = request.acknowledge ?? '2xx';
        const why = rule === '2xx' ? undefined : refusedAcknowledgement(rule, status, response, size > MAX_RESPONSE_BYTES);
        resolve(why === undefined ? { ok: true, status, response, duration_ms } : { ok: false, status, response, duration_ms, error: why, unacknowledged: rule as Exclude<Acknowledgement, '2xx'> });
      };

      const client = url.protocol === 'https:' ? https : http;
      let req: http.ClientRequest;
      try {
        req = client.request(url, {
          method: 'POST',
          agent: url.protocol === 'https:' ? this.#https : this.#http,
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': String(Buffer.byteLength(request.body)),
            'User-Agent': USER_AGENT,
            ...request.headers,
          },
        });
      } catch (error) {
        resolve(refused(`The request could not be built (${(error as Error).message}); nothing was sent.`));
        return;
      }

      const abort = () => {
        finish(STOPPED);
        req.destroy();
      };
      this.#inFlight.add(abort);

      const timer = setTimeout(() => {
        finish({
          error:
            status === null
              ? `No answer within ${formatDuration(request.timeoutMs)} (the callback timeout, --callback-timeout); the sandbox closed the connection. Answer 2xx quickly and do slow work after answering.`
              : `The receiver answered ${status} but did not finish the answer within ${formatDuration(request.timeoutMs)} (the callback timeout); the sandbox closed the connection.`,
        });
        req.destroy();
      }, request.timeoutMs);

      req.on('response', (res) => {
        status = res.statusCode ?? null;
        const header = res.headers.location;
        location = Array.isArray(header) ? header[0] : header;
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size >= MAX_RESPONSE_BYTES) {
            // Enough to log: drop the rest instead of reading an unbounded answer.
            finish({});
            res.destroy();
          }
        });
        res.on('end', () => finish({}));
        res.on('close', () => finish({ error: `The connection was closed or reset in the middle of the answer (status ${status} received, body incomplete after ${size} bytes).` }));
      });

      req.on('error', (error: NodeJS.ErrnoException) => finish({ error: describeNetworkError(error, url) }));

      if (request.onSent) req.once('finish', request.onSent);
      if (!request.barrier) {
        req.end(request.body);
        return;
      }
      // All but the last byte now; the last byte once every request of the barrier is this far.
      const bytes = Buffer.from(request.body);
      req.write(bytes.subarray(0, -1), () => {
        void arrive()?.then(() => {
          if (!settled) req.end(bytes.subarray(-1));
        });
      });
    });
  }
}

/** Why a complete answer does not count as delivered, or undefined when it does. */
function judge(status: number | null, location: string | undefined): string | undefined {
  if (status === null) return 'No HTTP status was received.';
  if (status >= 200 && status < 300) return undefined;
  if (status >= 300 && status < 400) {
    return `The callback URL redirected (${status}) to ${location ? JSON.stringify(location) : 'no Location header'}. Redirects are not followed: set callback_url to the final address.`;
  }
  return `The receiver answered ${status}; only a 2xx answer counts as delivered.`;
}

/**
 * Why a complete 2xx answer does not acknowledge a callback under `rule`, or undefined when it
 * does. The rule sees the whole body: one longer than the 1 KiB the sandbox reads cannot be
 * judged, so it does not acknowledge.
 */
function refusedAcknowledgement(rule: Acknowledgement, status: number | null, response: string, cut: boolean): string | undefined {
  if (cut) {
    return `The receiver answered ${status} with more than ${MAX_RESPONSE_BYTES} bytes; this profile acknowledges a callback only with ${acknowledgingAnswer(rule)}, and the sandbox reads no more than the first ${MAX_RESPONSE_BYTES} bytes of an answer.`;
  }
  const verdict = acknowledges(rule, status, response);
  return verdict.acknowledged ? undefined : verdict.why;
}

function describeNetworkError(error: NodeJS.ErrnoException, url: URL): string {
  const where = url.host;
  switch (error.code) {
    case 'ECONNREFUSED':
      return `Connection refused by ${where}: nothing is listening there. Start the receiver, or fix the port in callback_url.`;
    case 'ECONNRESET':
      return error.message === 'socket hang up' ? `${where} closed the connection without answering.` : `${where} reset the connection before answering.`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `The host ${url.hostname} could not be resolved (${error.code}). Check the host name in callback_url.`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${where} cannot be reached from the sandbox (${error.code}).`;
    default:
      if (error.code?.startsWith('HPE_')) return `The answer from ${where} is not valid HTTP (${error.code}: ${error.message}).`;
      if (error.code?.startsWith('ERR_TLS') || /certificate/i.test(error.message)) {
        return `TLS to ${where} failed: ${error.message}. The sandbox verifies certificates; use http:// for a local receiver.`;
      }
      return `Sending to ${where} failed: ${error.code ? `${error.code}: ` : ''}${error.message}.`;
  }
}

function refused(error: string): CallbackResponse {
  return { ok: false, status: null, response: '', duration_ms: 0, error };
}
