import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminClientError } from '../admin-client/admin-client.js';
import type { Credentials, DriftReference } from '../drift/drift-types.js';
import { startSandbox } from '../programmatic/start-sandbox.js';

/** The sandbox of a drift run, and how to stop it. */
export interface RunningReference extends DriftReference {
  close(): Promise<void>;
}

/**
 * Starts the sandbox a drift run compares the target with: in this process, in memory, on
 * 127.0.0.1, without the bundled scenarios (no order of the run starts with `sbx-` anyway),
 * accepting a token or a signature. Its fixtures file lists only a made-up merchant; the
 * merchant's own credentials (and the second merchant's) are added through the admin API, so
 * the secret is never written to a file.
 *
 * @example
 * const reference = await startDriftReference([{ merchant, token, secret }]);
 * await runDrift({ ..., reference });
 * await reference.close();
 */
export async function startDriftReference(merchants: readonly Credentials[]): Promise<RunningReference> {
  const folder = mkdtempSync(join(tmpdir(), 'deposit-sandbox-drift-'));
  const placeholder = { id: randomUUID(), name: 'drift placeholder', token: `drift-${randomBytes(12).toString('hex')}`, secret: `drift-${randomBytes(16).toString('hex')}`, rate: 92.5 };
  const fixtures = join(folder, 'fixtures.json');
  writeFileSync(fixtures, JSON.stringify({ merchants: [placeholder] }));
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sandbox = await startSandbox({ inMemory: true, fixtures, bundledScenarios: false, auth: 'either' });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  try {
    for (const [index, merchant] of merchants.entries()) {
      await sandbox.admin.call('POST', '/merchants', {
        json: { id: merchant.merchant, name: index === 0 ? 'drift merchant' : 'drift second merchant', token: merchant.token, secret: merchant.secret },
      });
    }
  } catch (error) {
    await sandbox.close();
    const why = error instanceof AdminClientError ? (error.envelope?.error.details?.map((detail) => `${detail.field} ${detail.message}`).join('; ') ?? error.message) : (error as Error).message;
    throw new Error(`The sandbox to compare with could not take the merchant's credentials: ${why}`);
  }
  return {
    url: sandbox.url,
    async setProfile(profile) {
      try {
        await sandbox.admin.request('PUT', '/profile', profile);
      } catch (error) {
        const status = error instanceof AdminClientError && error.status !== null ? `${error.status} ` : '';
        throw new Error(`The sandbox to compare with refused the profile ${profile.name}: ${status}${(error as Error).message}`);
      }
    },
    async confirm(tradeId) {
      await sandbox.admin.transition(tradeId, 'confirmed');
    },
    close: () => sandbox.close(),
  };
}
