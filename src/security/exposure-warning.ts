import { isLoopbackHost } from './loopback.js';
import { runningInContainer } from './running-in-container.js';

/**
 * The warning `serve` prints on stderr when the sandbox is reachable from other machines
 * (a non-loopback --host) and its admin API is open (no --admin-token); undefined otherwise.
 *
 * Inside a container the sandbox must listen on every interface for a published port to reach
 * it, and it cannot see how the port was published: `-p 127.0.0.1:4242:4242` keeps it on this
 * machine, `-p 4242:4242` opens it to the network. So the warning says how to tell the two apart
 * instead of claiming that other machines reach it, and advises the admin token or a
 * loopback-published port rather than --host 127.0.0.1.
 */
export function exposureWarning(options: { host: string; port?: number | undefined; adminToken?: string | undefined }, inContainer: boolean = runningInContainer()): string | undefined {
  if (isLoopbackHost(options.host) || options.adminToken !== undefined) return undefined;
  const rule = '!'.repeat(78);
  const port = options.port !== undefined && options.port !== 0 ? options.port : 4242;
  const lines = inContainer
    ? [
        `!! WARNING: deposit-sandbox listens on ${options.host} in its container, as it must for`,
        '!! a published port to reach it, and has no --admin-token. Whoever reaches that',
        '!! port can read every trade, force trade states, replay callbacks and',
        '!! reset the sandbox through /_sandbox. The sandbox cannot see how the port is',
        `!! published: on loopback only (-p 127.0.0.1:${port}:${port}), only this machine`,
        `!! reaches it and you can ignore this; on every interface (-p ${port}:${port}), set`,
        '!! DEPOSIT_SANDBOX_ADMIN_TOKEN. Never expose it to the internet.',
      ]
    : [
        `!! WARNING: deposit-sandbox listens on ${options.host}, which other machines can reach,`,
        '!! and has no --admin-token. Anyone who can reach this address can read every trade,',
        '!! force trade states, replay callbacks and reset the sandbox through /_sandbox.',
        '!! Start it with --admin-token <token> (or DEPOSIT_SANDBOX_ADMIN_TOKEN), or keep the',
        '!! default --host 127.0.0.1. It is a sandbox: never expose it to the internet.',
      ];
  return [rule, ...lines, rule, ''].join('\n');
}
