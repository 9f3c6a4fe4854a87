import type { AdminTrade } from '../admin/admin-trade.js';
import type { TradeQuery } from '../admin/list-trades.js';
import type { CallbackQuery } from '../callbacks/list-callbacks.js';
import type { CallbackEvent } from '../store/callback-records.js';
import type { CheckReport } from '../check-callback/check-report.js';
import type { ErrorEnvelope } from '../http/errors.js';
import type { ScenarioSummary } from '../scenarios/describe-scenario.js';
import type { TradeState } from '../trades/trade.js';
import type { AdvanceAnswer, ClockAnswer, HealthAnswer, ResetAnswer, TradeDetail, TradesAnswer } from '../admin/admin-answers.js';
import { type AdminAnswer, type AdminArgs, type AdminMethod, type AdminPath, adminPath } from '../admin/admin-api.js';
import type { GoLiveChecklist } from '../go-live/go-live-schema.js';
import type { IntegrationReport } from '../report/report-schema.js';

export const DEFAULT_SANDBOX_URL = 'http://127.0.0.1:4242';

export interface AdminClientOptions {
  /** The sandbox's base URL (default http://127.0.0.1:4242). */
  url?: string;
  /** The sandbox's --admin-token, sent as `Authorization: Bearer <token>`. */
  adminToken?: string;
  /** How long one request may take, in ms (default 30 s; a receiver check may take a while). */
  timeoutMs?: number;
}

/** Filters of GET /_sandbox/trades. */
export type TradeFilter = Partial<TradeQuery>;
/** Filters of GET /_sandbox/callbacks. */
export type CallbackFilter = Partial<CallbackQuery>;

/**
 * An admin API call that failed: the sandbox answered with an error envelope (`status`,
 * `code`, `envelope`), answered something else, or could not be reached (`status` null).
 * The message is the sandbox's own explanation.
 */
export class AdminClientError extends Error {
  override name = 'AdminClientError';
  readonly status: number | null;
  readonly code: string;
  readonly envelope: ErrorEnvelope | undefined;

  constructor(message: string, status: number | null, code: string, envelope?: ErrorEnvelope) {
    super(message);
    this.status = status;
    this.code = code;
    this.envelope = envelope;
  }
}

/**
 * A typed client of a running sandbox's admin API (/_sandbox). startSandbox() hands one out
 * as `admin`; the CLI's trigger, reset and check-callback commands use it too. Every method
 * resolves with the answer (one-member answers unwrapped) or rejects with an AdminClientError.
 */
export class AdminClient {
  /** The sandbox's base URL, without a trailing slash. */
  readonly url: string;
  readonly #token: string | undefined;
  readonly #timeoutMs: number;

  constructor(options: AdminClientOptions = {}) {
    const given = options.url ?? DEFAULT_SANDBOX_URL;
    let parsed: URL;
    try {
      parsed = new URL(given);
    } catch {
      throw new AdminClientError(`--url ${JSON.stringify(given)} is not a URL. Pass the sandbox address, e.g. --url ${DEFAULT_SANDBOX_URL}.`, null, 'bad_url');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new AdminClientError(`--url must be an http(s) URL such as ${DEFAULT_SANDBOX_URL}; got ${JSON.stringify(given)}.`, null, 'bad_url');
    }
    this.url = given.replace(/\/+$/, '');
    this.#token = options.adminToken;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
  }

  health(): Promise<HealthAnswer> {
    return this.call('GET', '/health');
  }

  /** Trades matching the filters, newest first (`limit` default 100), and how many match in all. */
  trades(filter: TradeFilter = {}): Promise<TradesAnswer> {
    return this.call('GET', '/trades', { query: filter });
  }

  /** One trade with its history, callbacks (oldest first) and pending steps. */
  trade(id: string): Promise<TradeDetail> {
    return this.call('GET', '/trades/:id', { param: { id } });
  }

  /** Moves a trade to `state` (a callback follows when it has a callback_url). */
  async transition(id: string, state: TradeState, note?: string): Promise<AdminTrade> {
    const json = { state, ...(note !== undefined ? { note } : {}) };
    return (await this.call('POST', '/trades/:id/transition', { param: { id }, json })).trade;
  }

  /** Removes every trade, callback and pending step (the clock stays where it is). */
  reset(): Promise<ResetAnswer> {
    return this.call('POST', '/reset');
  }

  /** Callback events matching the filters, newest first. */
  async callbacks(filter: CallbackFilter = {}): Promise<CallbackEvent[]> {
    return (await this.call('GET', '/callbacks', { query: filter })).callbacks;
  }

  async callback(id: string): Promise<CallbackEvent> {
    return (await this.call('GET', '/callbacks/:id', { param: { id } })).callback;
  }

  /** Sends a callback again, now, as a new event (`replay_of` = id). */
  async replay(id: string): Promise<CallbackEvent> {
    return (await this.call('POST', '/callbacks/:id/replay', { param: { id } })).callback;
  }

  clock(): Promise<ClockAnswer> {
    return this.call('GET', '/clock');
  }

  /** Moves the sandbox clock forward ("10m", "5s", or ms) and runs everything that fell due, in order. */
  advanceClock(by: string | number): Promise<AdvanceAnswer> {
    return this.call('POST', '/clock/advance', { json: { by } });
  }

  async scenarios(): Promise<ScenarioSummary[]> {
    return (await this.call('GET', '/scenarios')).scenarios;
  }

  /** Has the sandbox check a callback receiver (see `deposit-sandbox check-callback`). */
  checkCallback(url: string, options: { merchant?: string; order?: string } = {}): Promise<CheckReport> {
    return this.call('POST', '/check-callback', { json: { url, ...options } });
  }

  /** The merchant's mistakes the sandbox counted, per merchant (the integration report). */
  report(): Promise<IntegrationReport> {
    return this.call('GET', '/report', { query: {} });
  }

  /** Forgets this workspace's integration report (its counts and coverage): a fresh start of the report, the trades kept. */
  clearReport(): Promise<{ status: 'cleared'; merchants: number }> {
    return this.call('DELETE', '/report');
  }

  /**
   * A merchant's go-live checklist (see `deposit-sandbox go-live`): from the coverage alone, or,
   * given `receiver`, with that receiver checked and fuzzed first (`probe`: its balance probe).
   */
  goLive(options: { merchant?: string; receiver?: string; probe?: string; seed?: number; runs?: number } = {}): Promise<GoLiveChecklist> {
    const { receiver, ...rest } = options;
    if (receiver !== undefined) return this.call('POST', '/go-live', { json: { receiver, ...rest } });
    return this.call('GET', '/go-live', { query: options.merchant !== undefined ? { merchant: options.merchant } : {} });
  }

  /**
   * Any admin route, typed by its declaration (src/admin/admin-api.ts): `path` as the route is
   * declared under /_sandbox (`'/trades/:id'`), `input` what it takes (`param`, `query`, `json`),
   * resolving with what it answers. Every method above is one such call.
   *
   * @example
   * const { signature } = await admin.call('POST', '/merchants/:id/sign', { param: { id }, json: { string_to_sign: 'a::b' } });
   */
  call<P extends AdminPath, M extends AdminMethod<P>>(method: M, path: P, ...[input]: AdminArgs<P, M>): Promise<AdminAnswer<P, M>> {
    const { json, ...where } = (input ?? {}) as { json?: unknown; param?: Record<string, string>; query?: Record<string, unknown> };
    return this.request(method as 'GET' | 'POST' | 'PUT' | 'DELETE', adminPath(path, where), json);
  }

  /** Any admin route: `path` is under /_sandbox. A string body is sent as it is (YAML), anything else as JSON. */
  async request<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.#token) headers['Authorization'] = `Bearer ${this.#token}`;
    if (body !== undefined) headers['Content-Type'] = typeof body === 'string' ? 'application/yaml' : 'application/json';
    let res: Response;
    try {
      res = await fetch(`${this.url}/_sandbox${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const why = (error as Error).name === 'TimeoutError' ? `no answer within ${this.#timeoutMs} ms` : (cause?.code ?? cause?.message ?? (error as Error).message);
      throw new AdminClientError(`Could not reach the sandbox at ${this.url} (${why}). Start it with \`deposit-sandbox\`, or point --url (or DEPOSIT_SANDBOX_URL) at it.`, null, 'unreachable');
    }

    const text = await res.text();
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new AdminClientError(
        `${this.url} answered ${res.status} with something that is not JSON; is it a deposit-sandbox? First bytes: ${JSON.stringify(text.slice(0, 120))}`,
        res.status,
        'not_json',
      );
    }
    if (!res.ok) {
      const envelope = data as Partial<ErrorEnvelope> | null;
      const error = envelope?.error;
      if (!error || typeof error.message !== 'string') throw new AdminClientError(`${this.url} answered ${res.status}: ${text.slice(0, 300)}`, res.status, 'unexpected_answer');
      const allowed = Array.isArray(error.allowed) && !error.message.includes('Allowed:') ? ` (allowed now: ${error.allowed.length > 0 ? error.allowed.join(', ') : 'none, the state is final'})` : '';
      throw new AdminClientError(`${error.message}${allowed}`, res.status, String(error.code), envelope as ErrorEnvelope);
    }
    return data as T;
  }
}
