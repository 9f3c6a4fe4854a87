import type { Context, MiddlewareHandler } from 'hono';
import { safeEqual } from '../auth/signature.js';
import { SandboxError } from './errors.js';
import type { SandboxEnv } from './sandbox-env.js';

const HOW = 'Send `Authorization: Bearer <token>` with the token the sandbox was started with (--admin-token or DEPOSIT_SANDBOX_ADMIN_TOKEN).';

/**
 * Why a request may not use the admin API, or undefined when it may: no token configured,
 * or `Authorization: Bearer <token>` matches it.
 */
export function adminTokenProblem(token: string | undefined, authorization: string | undefined): string | undefined {
  if (token === undefined) return undefined;
  if (!authorization) return `This sandbox runs with an admin token, and the request has no Authorization header. ${HOW}`;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
  if (!match?.[1]) {
    const scheme = authorization.trim().split(/\s+/)[0] ?? '';
    return `The Authorization header must use the Bearer scheme${scheme ? `; got "${scheme.slice(0, 20)}"` : ''}. ${HOW}`;
  }
  if (!safeEqual(match[1], token)) return `The admin token in the Authorization header is not the one this sandbox was started with. ${HOW}`;
  return undefined;
}

/** True when the request may see admin data (see adminTokenProblem). */
export function hasAdminAccess(c: Context, token: string | undefined): boolean {
  return adminTokenProblem(token, c.req.header('Authorization')) === undefined;
}

/** Throws 401 `admin_token_required` unless the request may use the admin API (see adminTokenProblem). */
export function assertAdminAccess(c: Context, token: string | undefined): void {
  const problem = adminTokenProblem(token, c.req.header('Authorization'));
  if (problem !== undefined) {
    throw new SandboxError(401, 'admin_token_required', problem, {
      details: [{ field: 'Authorization', message: 'must be "Bearer <admin token>"' }],
      headers: { 'WWW-Authenticate': 'Bearer realm="deposit-sandbox admin"' },
    });
  }
}

/** Middleware: with --admin-token set, answers 401 `admin_token_required` unless the Bearer token matches. */
export function requireAdminToken(token: string | undefined): MiddlewareHandler {
  return async (c, next) => {
    assertAdminAccess(c, token);
    await next();
  };
}

/** The admin-token check (src/admin/admin-token.ts) with the token of the request's sandbox. */
export const requireSandboxAdmin: MiddlewareHandler<SandboxEnv> = async (c, next) => {
  assertAdminAccess(c, c.get('sandbox').options.adminToken);
  await next();
};
