/**
 * Runs drift in this process against a target on 127.0.0.1 (a sandbox, the fake provider), as
 * the CLI does but with no gap between requests: the in-process sandbox of the CLI
 * (startDriftReference), callback inboxes on 127.0.0.1 when `confirm` is given, and a hook that
 * confirms the target's trades once the run waits for their callbacks.
 */
import { startDriftReference } from '../../src/cli/drift-reference.js';
import { startCallbackInbox, type CallbackInbox } from '../../src/drift/callback-inbox.js';
import type { DriftReport } from '../../src/drift/drift-report.js';
import type { Credentials } from '../../src/drift/drift-types.js';
import { runDrift } from '../../src/drift/run-drift.js';
import { loadProfile } from '../../src/profile/load-profile.js';

/** The bundled demo merchant and the second one, as a sandbox target knows them. */
export const DEMO: Credentials = { merchant: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51', token: 'sandbox-token-demo', secret: 'sandbox-secret-demo' };
export const SECOND: Credentials = { merchant: '0b8e4c3d-7a21-4f6e-8d59-3c1a2b9e6f70', token: 'sandbox-token-second', secret: 'sandbox-secret-second' };

export interface DriftAgainst {
  /** --profile: a built-in's name or a file. Default sandbox. */
  profile?: string;
  /** Moves one of the target's trades so that it sends a callback; without it callbacks are not checked. */
  confirm?: (tradeId: string) => Promise<unknown>;
  /** Send get.other_merchant_trade (default true). */
  other?: boolean;
  gapMs?: number;
}

export async function driftAgainst(target: string, options: DriftAgainst = {}): Promise<DriftReport> {
  const profileSource = options.profile ?? 'sandbox';
  const other = options.other ?? true;
  const reference = await startDriftReference(other ? [DEMO, SECOND] : [DEMO]);
  const inboxes: CallbackInbox[] = [];
  try {
    const profile = loadProfile(profileSource);
    let callbacks: Parameters<typeof runDrift>[0]['callbacks'];
    const { confirm } = options;
    if (confirm) {
      const targetInbox = await startCallbackInbox({ host: '127.0.0.1', port: 0, acknowledge: profile.callbacks.acknowledge });
      const sandboxInbox = await startCallbackInbox({ host: '127.0.0.1', port: 0, acknowledge: profile.callbacks.acknowledge });
      inboxes.push(targetInbox, sandboxInbox);
      callbacks = { targetUrl: `${targetInbox.url}/callbacks`, target: targetInbox, sandbox: sandboxInbox, waitMs: 15_000 };
    }
    return await runDrift({
      target,
      credentials: DEMO,
      ...(other ? { other: SECOND } : {}),
      profile,
      profileSource,
      reference,
      ...(callbacks ? { callbacks } : {}),
      gapMs: options.gapMs ?? 0,
      onEvent: (event) => {
        if (event.type === 'waiting' && confirm) for (const trade of event.trades) void confirm(trade.id).catch(() => undefined);
      },
    });
  } finally {
    for (const inbox of inboxes) await inbox.close();
    await reference.close();
  }
}

/** A difference as the tests compare it. */
export const row = (d: { probe: string; aspect: string; path: string; sandbox: unknown; target: unknown }) => [d.probe, d.aspect, d.path, d.sandbox, d.target] as const;
