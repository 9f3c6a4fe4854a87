import type { MiddlewareHandler } from 'hono';
import { SandboxError } from '../http/errors.js';
import { isLoopbackHost } from './loopback.js';

export interface HostGuardTarget {
  readonly options: { readonly host: string };
  /** Read per request: it is set once the server listens. */
  readonly publicUrl: string;
}

/** How many distinct loopback Host headers are remembered (127.0.0.0/8 has many names). */
const MAX_REMEMBERED = 64;

/** The name part of a Host header value (`[::1]:4242` -> `[::1]`, `localhost:4242` -> `localhost`). */
function hostName(header: string): string {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(0, value.indexOf(']') + 1);
  const colon = value.lastIndexOf(':');
  return colon === -1 ? value : value.slice(0, colon);
}

/**
 * DNS-rebinding protection. A sandbox bound to a loopback address answers only requests
 * addressed to a loopback name (localhost, 127.0.0.1, [::1]) or to the host of its public
 * URL: a web page whose own domain was re-pointed at 127.0.0.1 would otherwise be
 * same-origin with the sandbox and could read and reset it. A sandbox bound to another
 * interface (--host 0.0.0.0) is meant to be reached by other names, and is not checked.
 * A request without a Host header (HTTP/1.0, in-process calls) passes.
 */
export function hostGuard(target: HostGuardTarget): MiddlewareHandler {
  const allowed = hostCheck(target);
  // Not async: on every request, one promise fewer (Hono's compose catches what it throws).
  return (c, next) => {
    const header = c.req.header('Host');
    if (!allowed(header)) {
      const shown = JSON.stringify((header ?? '').slice(0, 100));
      throw new SandboxError(
        403,
        'host_not_allowed',
        `This sandbox listens on ${target.options.host} and answers only requests addressed to localhost, 127.0.0.1, [::1]${target.publicUrl ? ` or the host of its public URL (${target.publicUrl})` : ''}; this one was addressed to ${shown}. The check keeps web pages from reaching the sandbox through DNS rebinding. Use one of those names, or start the sandbox with --public-url http://${(header ?? '').slice(0, 100)} to allow this one.`,
        { details: [{ field: 'Host', message: 'not a loopback name or the public URL host' }] },
      );
    }
    return next();
  };
}

/**
 * The rule of `hostGuard` as a predicate over a Host header value: true when the request may
 * be answered. Loopback names found once are remembered (clients send the same one every time).
 */
export function hostCheck(target: HostGuardTarget): (header: string | undefined) => boolean {
  const guarded = isLoopbackHost(target.options.host);
  const loopback = new Set<string>();
  return (header) => {
    if (!guarded || header === undefined || header === '' || loopback.has(header)) return true;
    const name = hostName(header);
    if (isLoopbackHost(name)) {
      if (loopback.size < MAX_REMEMBERED) loopback.add(header);
      return true;
    }
    return name === publicHost(target.publicUrl);
  };
}

function publicHost(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
