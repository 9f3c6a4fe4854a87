import type { Profile } from '../profile/profile-schema.js';
import { callbackSchemes, signatureHeaders, verifyingCallbackSchemes } from './callback-schemes.js';
import { compareCallbacks, type CallbackSeen } from './compare-callbacks.js';
import type { ProbeOutcome } from './drift-report.js';
import type { CreatedTrade, Difference, DriftCallbacks, DriftEvent, DriftReference } from './drift-types.js';
import { TRADE_PROBES } from './probes.js';

/** The callbacks of one kind of trade, from both sides, once the wait is over. */
export interface CallbackPair {
  probe: string;
  sandbox?: CallbackSeen;
  target?: CallbackSeen;
}

export interface CallbackCheck {
  differences: Difference[];
  outcomes: ProbeOutcome[];
  pairs: CallbackPair[];
  /** The headers signatures travel in: left out of the header comparison, since the scheme covers them. */
  signatureHeaders: string[];
}

export interface CallbackCheckInput {
  /** The profile the sandbox follows now (with the signing the target accepted, when one was found). */
  profile: Profile;
  callbacks: DriftCallbacks;
  reference: DriftReference;
  secret: string;
  targetTrades: ReadonlyMap<string, { id: string; order: string }>;
  sandboxTrades: ReadonlyMap<string, { id: string; order: string }>;
  created: readonly CreatedTrade[];
  onEvent?: (event: DriftEvent) => void;
}

/**
 * The callbacks of the valid trades: the sandbox's trades are confirmed (its admin API), the
 * target's are awaited (someone pays them, or the test environment moves them), both for at
 * most `waitMs`; then for each kind of trade the first callback of each side is compared
 * (compareCallbacks()): `callback.any_bank`, `callback.nspk`, `callback.ecom`.
 */
export async function checkCallbacks(input: CallbackCheckInput): Promise<CallbackCheck> {
  const { callbacks } = input;
  const kinds = Object.entries(TRADE_PROBES).map(([type, probe]) => ({ type, probe, target: input.targetTrades.get(probe), sandbox: input.sandboxTrades.get(probe) }));
  const failures = new Map<string, string>();
  for (const kind of kinds) {
    if (!kind.sandbox) continue;
    try {
      await input.reference.confirm(kind.sandbox.id);
    } catch (error) {
      failures.set(kind.type, (error as Error).message);
    }
  }
  const awaited = kinds.filter((kind) => kind.target && kind.sandbox);
  input.onEvent?.({ type: 'waiting', trades: input.created.filter((trade) => awaited.some((kind) => kind.target?.id === trade.id)), waitMs: callbacks.waitMs });
  const about = (order: string) => (callback: { body: string }) => callback.body.includes(order);
  await Promise.all(
    awaited.flatMap((kind) => [callbacks.target.waitFor(about(kind.target?.order ?? '\u0000'), callbacks.waitMs), callbacks.sandbox.waitFor(about(kind.sandbox?.order ?? '\u0000'), callbacks.waitMs)]),
  );

  const schemes = callbackSchemes([input.profile]);
  const headers = signatureHeaders(schemes);
  const seen = (inbox: DriftCallbacks['target'], order: string): CallbackSeen | undefined => {
    const callback = inbox.received.find(about(order));
    return callback ? { callback, schemes: verifyingCallbackSchemes(callback, input.secret, schemes) } : undefined;
  };
  const check: CallbackCheck = { differences: [], outcomes: [], pairs: [], signatureHeaders: headers };
  const seconds = `${Math.round(callbacks.waitMs / 100) / 10} s`;
  for (const kind of kinds) {
    const probe = `callback.${kind.type}`;
    const what = `the first callback of ${kind.probe}'s trade`;
    const skip = (why: string) => check.outcomes.push({ probe, what, result: 'skipped', why });
    if (!kind.target || !kind.sandbox) {
      skip(`${kind.probe} created no trade on ${kind.target ? 'the sandbox' : 'the target'}`);
      continue;
    }
    const pair: CallbackPair = { probe };
    const sandbox = seen(callbacks.sandbox, kind.sandbox.order);
    const target = seen(callbacks.target, kind.target.order);
    if (sandbox) pair.sandbox = sandbox;
    if (target) pair.target = target;
    check.pairs.push(pair);
    if (!sandbox) {
      skip(`the sandbox sent no callback for its trade within ${seconds}${failures.has(kind.type) ? ` (${failures.get(kind.type)})` : ''}`);
    } else if (!target) {
      skip(`the target sent no callback for trade ${kind.target.id} within ${seconds}: pay it on its payment page, or wait longer with --callback-wait`);
    } else {
      const differences = compareCallbacks(probe, sandbox, target, headers);
      check.differences.push(...differences);
      check.outcomes.push({ probe, what, result: differences.length > 0 ? 'different' : 'same' });
    }
  }
  return check;
}
