import { isLoopbackHost } from './loopback.js';

/**
 * The warning `serve` prints on stderr when the sandbox is reachable from other machines
 * (a non-loopback --host) and its admin API is open (no --admin-token); undefined otherwise.
 */
export function exposureWarning(options: { host: string; adminToken?: string | undefined }): string | undefined {
  if (isLoopbackHost(options.host) || options.adminToken !== undefined) return undefined;
  const rule = '!'.repeat(78);
  return [
    rule,
    `!! WARNING: deposit-sandbox listens on ${options.host}, which other machines can reach,`,
    '!! and has no --admin-token. Anyone who can reach this address can read every trade,',
    '!! force trade states, replay callbacks and reset the sandbox through /_sandbox.',
    '!! Start it with --admin-token <token> (or DEPOSIT_SANDBOX_ADMIN_TOKEN), or keep the',
    '!! default --host 127.0.0.1. It is a sandbox: never expose it to the internet.',
    rule,
    '',
  ].join('\n');
}
