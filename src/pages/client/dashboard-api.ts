/**
 * The dashboard's client for the admin API, each call typed by its route's declaration
 * (src/admin/admin-api.ts: type-only, so nothing of the server is bundled but adminPath()). The
 * admin token lives in sessionStorage and goes out as `Authorization: Bearer <token>`.
 */
import { type AdminAnswer, type AdminInput, type AdminMethod, type AdminPath, adminPath } from '../../admin/admin-api.js';
import { basePath, type DashboardI18n } from './dashboard-i18n.js';

export function dashboardApi(i18n: DashboardI18n) {
  const { t } = i18n;
  const base = basePath();
  const KEY = 'deposit-sandbox.admin-token';

  class ApiError extends Error {
    readonly status: number;
    readonly code: string | undefined;
    /** The admin token the refused call carried (null: none): a refusal of a token since replaced says nothing of the new one. */
    readonly sentToken: string | null;
    constructor(message: string, status: number, code: string | undefined, sentToken: string | null = null) {
      super(message);
      this.status = status;
      this.code = code;
      this.sentToken = sentToken;
    }
  }

  const token = {
    get: (): string | null => sessionStorage.getItem(KEY),
    set: (value: string): void => sessionStorage.setItem(KEY, value),
    clear: (): void => sessionStorage.removeItem(KEY),
  };

  /**
   * Calls <base>/_sandbox<path> (or <prefix>/_sandbox<path>: '' is the server's root); throws
   * ApiError with the envelope's message when the answer is not 2xx.
   */
  async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown, prefix = base): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const bearer = token.get();
    if (bearer) headers['Authorization'] = `Bearer ${bearer}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const init: RequestInit = { method, headers, cache: 'no-store' };
    if (body !== undefined) init.body = JSON.stringify(body);
    let response: Response;
    try {
      response = await fetch(`${prefix}/_sandbox${path}`, init);
    } catch {
      throw new ApiError(t('api.unreachable'), 0, 'unreachable', bearer);
    }
    const text = await response.text();
    let data: unknown = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = null;
    }
    if (!response.ok) {
      const error = (data as { error?: { message?: unknown; code?: unknown; allowed?: unknown } } | null)?.error;
      const allowed = Array.isArray(error?.allowed) ? ` ${t('api.allowed', { states: error.allowed.join(', ') || t('api.none') })}` : '';
      const message =
        typeof error?.message === 'string'
          ? error.message + (error.message.includes('Allowed') ? '' : allowed)
          : t('api.answered', { request: `${method} ${base}/_sandbox${path}`, status: response.status });
      throw new ApiError(message, response.status, typeof error?.code === 'string' ? error.code : undefined, bearer);
    }
    return data as T;
  }

  /**
   * A call of an admin route: `path` as the route is declared under /_sandbox (`'/trades/:id'`),
   * `input` its `param`, `query` and `json`; `prefix` as request()'s.
   */
  function call<P extends AdminPath, M extends AdminMethod<P>>(method: M, path: P, input?: AdminInput<P, M>, prefix = base): Promise<AdminAnswer<P, M>> {
    const { json, ...where } = (input ?? {}) as { json?: unknown; param?: Record<string, string>; query?: Record<string, unknown> };
    return request(method as 'GET' | 'POST', adminPath(path, where), json, prefix);
  }

  return { call, token, ApiError };
}

export type DashboardApi = ReturnType<typeof dashboardApi>;
