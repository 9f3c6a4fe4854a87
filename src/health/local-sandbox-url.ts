import { DEFAULT_SANDBOX_URL } from '../admin-client/admin-client.js';

/** Wildcard binds are reached from the same machine (or container) through loopback. */
const WILDCARDS: Record<string, string> = { '0.0.0.0': '127.0.0.1', '::': '::1', '[::]': '::1' };

/**
 * The address a sandbox started with this environment listens on, as seen from the same
 * machine or container: `DEPOSIT_SANDBOX_HOST` (a wildcard such as 0.0.0.0 becomes loopback)
 * and `DEPOSIT_SANDBOX_PORT` or `PORT`, each falling back to serve's default.
 *
 *   localSandboxUrl({ DEPOSIT_SANDBOX_HOST: '0.0.0.0', DEPOSIT_SANDBOX_PORT: '5000' }) === 'http://127.0.0.1:5000'
 */
export function localSandboxUrl(env: Readonly<Record<string, string | undefined>>): string {
  const host = env['DEPOSIT_SANDBOX_HOST']?.trim() || undefined;
  const port = env['DEPOSIT_SANDBOX_PORT']?.trim() || env['PORT']?.trim() || undefined;
  if (host === undefined && port === undefined) return DEFAULT_SANDBOX_URL;
  const defaults = new URL(DEFAULT_SANDBOX_URL);
  const name = host === undefined ? defaults.hostname : (WILDCARDS[host] ?? host.replace(/^\[(.*)\]$/, '$1'));
  return `http://${name.includes(':') ? `[${name}]` : name}:${port ?? defaults.port}`;
}
