import { resolve } from 'node:path';
import { formatDuration } from '../clock/duration.js';
import { BUNDLED_FIXTURES } from '../merchants/fixtures.js';
import type { Sandbox } from '../sandbox.js';
import { profileLines } from './profile-lines.js';

/**
 * The lines `serve` prints after its ready line: the store, auth and clock, the payment page,
 * the provider profile, the first merchant. Never a token or secret: the README and the
 * fixtures file list them.
 *
 * `inContainer` (DEPOSIT_SANDBOX_IN_CONTAINER, which the image sets): the files named are in the
 * container, and whoever reads `docker logs` on the host would look for them there, so each path
 * says "inside the container".
 */
export function startupLines(sandbox: Sandbox, inContainer: boolean): string {
  const path = (file: string) => (inContainer ? `${file} inside the container` : file);
  const store = sandbox.options.inMemory ? sandbox.store.adapter.location : path(sandbox.store.adapter.location);
  const demo = sandbox.merchants.list()[0];
  return [
    `  store:    ${store} (${sandbox.store.trades.size} trades)`,
    `  auth:     ${sandbox.options.auth}; clock: ${sandbox.clock.mode}${clockLead(sandbox.clock.aheadOfWall())}`,
    `  payments: ${sandbox.publicUrl}/pay/<trade id>`,
    ...profileLines(sandbox),
    demo ? `  merchant: ${demo.name} ${demo.id} (token and secret: in ${path(resolve(sandbox.options.fixtures ?? BUNDLED_FIXTURES))})` : '',
    '',
  ]
    .filter((line, index, all) => line !== '' || index === all.length - 1)
    .join('\n');
}

/** Says how far the clock runs ahead of the wall clock (advances are kept, also across modes). */
function clockLead(ahead: number): string {
  if (Math.abs(ahead) < 1_000) return '';
  return ` (${formatDuration(Math.abs(ahead))} ${ahead > 0 ? 'ahead of' : 'behind'} the wall clock, kept by this store; a new --data folder starts at the wall clock)`;
}
