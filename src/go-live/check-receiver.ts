import { ProbeError } from '../balance-probe/read-probe.js';
import { checkCallbackReceiver } from '../check-callback/check-callback-receiver.js';
import { fuzzReceiver } from '../callback-fuzzer/fuzz-receiver.js';
import type { Profile } from '../profile/profile-schema.js';
import type { ReceiverFindings } from './checklist.js';
import { GO_LIVE_RUNS } from './go-live-schema.js';

export interface CheckReceiverOptions {
  /** The merchant's callback_url. */
  url: string;
  /** Its balance probe (GET <url>?order=<order>); without one the fuzzer judges the HTTP answers alone. */
  probe?: string | undefined;
  merchant: { id: string; name?: string; secret: string; rate?: number };
  /** Another merchant's secret, for the fuzzer's forgery signed with the wrong merchant's secret. */
  otherSecret: string;
  /** The provider profile the sandbox follows: its callbacks are what the receiver gets. */
  profile: Profile;
  publicUrl: string;
  timeoutMs: number;
  seed: number;
  runs?: number | undefined;
  /** The time the check's callbacks are signed at (the sandbox clock's). */
  now?: () => number;
}

/**
 * Runs the receiver check (src/check-callback) and then the fuzzer (src/callback-fuzzer) on one
 * receiver, as the sandbox signs callbacks, for the go-live checklist. Never throws for what the
 * receiver or its probe does: a probe that breaks its contract is a finding (`fuzzError`).
 */
export async function checkReceiver(options: CheckReceiverOptions): Promise<ReceiverFindings> {
  const runs = options.runs ?? GO_LIVE_RUNS;
  const check = await checkCallbackReceiver({
    url: options.url,
    merchant: options.merchant,
    secretSource: `the fixtures' secret of ${options.merchant.name ?? options.merchant.id}`,
    publicUrl: options.publicUrl,
    timeoutMs: options.timeoutMs,
    profile: options.profile,
    ...(options.now !== undefined ? { now: options.now } : {}),
  });
  const base = { url: options.url, ...(options.probe !== undefined ? { probe: options.probe } : {}), seed: options.seed, runs, check };
  // A receiver that never answered the first callback would only time out schedule after schedule.
  if (check.cases[0]?.status === null) return { ...base, fuzz: undefined };
  try {
    const fuzz = await fuzzReceiver({
      url: options.url,
      merchant: options.merchant,
      otherSecret: options.otherSecret,
      publicUrl: options.publicUrl,
      timeoutMs: options.timeoutMs,
      seed: options.seed,
      runs,
      profile: options.profile,
      ...(options.probe !== undefined ? { probe: options.probe } : {}),
    });
    return { ...base, fuzz };
  } catch (error) {
    if (error instanceof ProbeError) return { ...base, fuzz: undefined, fuzzError: error.message };
    throw error;
  }
}
