import { isLoopbackHost } from './loopback.js';
import { runningInContainer } from './running-in-container.js';

/**
 * The warning `serve` prints on stderr when the sandbox is reachable from other machines
 * (a non-loopback --host) and its admin API is open (no --admin-token); undefined otherwise.
 * Inside a container, where listening on every interface is what makes the published port work,
 * it advises publishing the port on loopback instead of --host 127.0.0.1.
 */
export function exposureWarning(options: { host: string; adminToken?: string | undefined }, inContainer: boolean = runningInContainer()): string | undefined {
  if (isLoopbackHost(options.host) || options.adminToken !== undefined) return undefined;
  const rule = '!'.repeat(78);
  const fix = inContainer
    ? [
        '!! Set DEPOSIT_SANDBOX_ADMIN_TOKEN (or --admin-token <token>), or publish the port on',
        '!! loopback only (docker run -p 127.0.0.1:4242:4242 ...). Inside a container it must',
        '!! listen on all interfaces for a published port to reach it. Never expose it to the internet.',
      ]
    : ['!! Start it with --admin-token <token> (or DEPOSIT_SANDBOX_ADMIN_TOKEN), or keep the', '!! default --host 127.0.0.1. It is a sandbox: never expose it to the internet.'];
  return [
    rule,
    `!! WARNING: deposit-sandbox listens on ${options.host}, which other machines can reach,`,
    '!! and has no --admin-token. Anyone who can reach this address can read every trade,',
    '!! force trade states, replay callbacks and reset the sandbox through /_sandbox.',
    ...fix,
    rule,
    '',
  ].join('\n');
}
