/**
 * Headers that say nothing about the provider's API: transport, caching, tracing, security
 * policies, proxies and CDNs, tunnels. A real test environment behind a load balancer sends many
 * of them, and they differ from one deployment to the next.
 */
const GENERIC = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'accept-ranges',
  'age',
  'alt-svc',
  'cache-control',
  'connection',
  'content-encoding',
  'content-language',
  'content-length',
  'content-security-policy',
  'content-security-policy-report-only',
  'content-type',
  'date',
  'etag',
  'expires',
  'forwarded',
  'host',
  'keep-alive',
  'last-modified',
  'nel',
  'permissions-policy',
  'pragma',
  'referrer-policy',
  'report-to',
  'request-id',
  'server',
  'server-timing',
  'set-cookie',
  'strict-transport-security',
  'traceparent',
  'tracestate',
  'transfer-encoding',
  'user-agent',
  'vary',
  'via',
  'x-content-type-options',
  'x-correlation-id',
  'x-frame-options',
  'x-powered-by',
  'x-real-ip',
  'x-request-id',
  'x-trace-id',
  'x-xss-protection',
]);

const GENERIC_PREFIXES = ['access-control-', 'cross-origin-', 'cf-', 'x-amz-', 'x-envoy-', 'x-forwarded-', 'x-ratelimit-', 'ratelimit-', 'x-cache', 'x-served-by', 'x-timer', 'ngrok-'];

/**
 * The names (lowercased, sorted) of the headers worth comparing: every header but the generic
 * ones above and those named in `also` (a callback's signature headers, compared as its scheme).
 *
 * @example
 * meaningfulHeaderNames({ date: '...', location: '/x', 'x-signature': 'ab' }, ['X-Signature']) // ['location']
 */
export function meaningfulHeaderNames(headers: Readonly<Record<string, string>>, also: readonly string[] = []): string[] {
  const skip = new Set(also.map((name) => name.toLowerCase()));
  return Object.keys(headers)
    .map((name) => name.toLowerCase())
    .filter((name) => !GENERIC.has(name) && !skip.has(name) && !GENERIC_PREFIXES.some((prefix) => name.startsWith(prefix)))
    .sort();
}
