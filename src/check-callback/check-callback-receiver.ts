import { callbackHeaders } from '../callbacks/callback-headers.js';
import { CallbackSender, type CallbackResponse } from '../callbacks/callback-sender.js';
import { DEFAULT_POOL } from '../merchants/fixtures.js';
import { DEFAULT_PROFILE, loadProfile } from '../profile/load-profile.js';
import type { Profile } from '../profile/profile-schema.js';
import { createRandom, type Random } from '../trades/random.js';
import { drawRequisites } from '../trades/requisites.js';
import { paymentUrl, type Trade, type TradeState } from '../trades/trade.js';
import type { CheckCase, CheckCaseResult, CheckReport } from './check-report.js';
import { judgeCase, profileWords, type ProfileWords } from './judge-case.js';

/** The header that tells a receiver's logs which check case a request is. */
export const CHECK_HEADER = 'X-Sandbox-Check';

export interface CheckCallbackOptions {
  /** The receiver to check (the merchant's callback_url). */
  url: string;
  merchant: { id: string; secret: string; rate?: number };
  /** Where the secret came from, for messages ("the fixtures' secret of merchant ..."). */
  secretSource?: string;
  /** The order of the trade in the valid callbacks (default: a made-up "check-..." order). */
  order?: string;
  /** Base of payment_data.url in the bodies (default http://127.0.0.1:4242). */
  publicUrl?: string;
  /** How long the receiver has to answer each callback, in ms (default 10 s). */
  timeoutMs?: number;
  random?: Random;
  /** Sends the requests; a fresh one (closed afterwards) when absent. */
  sender?: CallbackSender;
  /** Called as each case finishes, for progress output. */
  onCase?: (result: CheckCaseResult) => void;
  /**
   * The provider profile whose callbacks to send and whose acknowledgement rule judges the
   * answers (a sandbox's own when it runs the check); default: the `sandbox` profile.
   */
  profile?: Profile;
  /** The time the callbacks are signed at, in ms (Standard Webhooks' webhook-timestamp); default: the wall clock. */
  now?: () => number;
}

interface Planned {
  kind: CheckCase;
  title: string;
  expected: string;
  trade: Trade;
  eventId: string;
  signature: 'valid' | 'wrong' | 'missing';
}

/** Each case in words, and the answer a correct receiver gives under the profile's acknowledgement rule. */
const titles = (words: ProfileWords): Record<CheckCase, { title: string; expected: string }> => ({
  valid: { title: 'a valid callback', expected: words.ack },
  duplicate: { title: 'the same callback again', expected: words.ack },
  older_state: { title: 'an older state after a newer one', expected: `${words.ack}, and ignored` },
  bad_signature: { title: 'a wrong signature', expected: '401 (any 4xx)' },
  no_signature: { title: 'no signature', expected: '401 (any 4xx)' },
});

/**
 * Checks a merchant's callback receiver: sends it a valid callback (a trade `confirmed`),
 * the same one again, `created` for that trade after it, a callback with a wrong
 * X-Signature and one without X-Signature (each for a trade of its own), one after another,
 * and judges each answer. Never throws for what the receiver does; every outcome is in the report.
 *
 * The callbacks are what the sandbox sends under `options.profile` (its signature headers, its
 * X-Sandbox-* helpers or none), and an answer acknowledges one only as the profile's rule says.
 * Under `callbacks.signature: none` there is no signature to spoil or leave out, so the two
 * forged cases are skipped.
 */
export async function checkCallbackReceiver(options: CheckCallbackOptions): Promise<CheckReport> {
  const profile = options.profile ?? loadProfile(DEFAULT_PROFILE);
  const words = profileWords(profile);
  const TITLES = titles(words);
  const random = options.random ?? createRandom();
  const publicUrl = options.publicUrl ?? 'http://127.0.0.1:4242';
  const order = options.order ?? `check-${random.uuid().slice(0, 8)}`;
  const trade = (state: TradeState, ord: string, id = random.uuid()): Trade => {
    const requisites = drawRequisites(random, DEFAULT_POOL, 'any_bank');
    return {
      id,
      order: ord,
      merchant: options.merchant.id,
      state,
      amount_cents: 150_000,
      amount_currency: 'RUB',
      rate: options.merchant.rate ?? 92.5,
      payment_data: { ...requisites, url: paymentUrl(publicUrl, id) },
    };
  };

  const paid = trade('confirmed', order);
  const plan: Planned[] = [
    // The newer state goes out first as event 2; event 1 (the older state) arrives late.
    { kind: 'valid', ...TITLES.valid, trade: paid, eventId: `cb_${paid.id}_2`, signature: 'valid' },
    { kind: 'duplicate', ...TITLES.duplicate, trade: paid, eventId: `cb_${paid.id}_2`, signature: 'valid' },
    { kind: 'older_state', ...TITLES.older_state, trade: { ...paid, state: 'created' }, eventId: `cb_${paid.id}_1`, signature: 'valid' },
  ];
  for (const kind of ['bad_signature', 'no_signature'] as const) {
    const forged = trade('confirmed', `${order}-${kind.replace('_', '-')}`);
    plan.push({ kind, ...TITLES[kind], trade: forged, eventId: `cb_${forged.id}_1`, signature: kind === 'bad_signature' ? 'wrong' : 'missing' });
  }

  const sender = options.sender ?? new CallbackSender(1);
  const context = { secretSource: options.secretSource ?? `the secret of merchant ${options.merchant.id}`, firstFailed: false, words };
  const unsigned =
    words.signature === undefined
      ? `Not sent: the provider profile "${profile.name}" sends callbacks unsigned (callbacks.signature: none), so there is no signature to spoil or leave out.`
      : undefined;
  const cases: CheckCaseResult[] = [];
  let unreachable: string | undefined;
  try {
    for (const planned of plan) {
      const forgedUnsigned = planned.signature !== 'valid' ? unsigned : undefined;
      const notSent = unreachable ?? forgedUnsigned;
      const result = notSent === undefined ? await send(sender, planned, options, profile) : undefined;
      const entry = result ? describe(planned, result, context) : skipped(planned, notSent ?? '');
      if (planned.kind === 'valid' && result) {
        context.firstFailed = entry.verdict !== 'ok';
        if (result.status === null) unreachable = `Not sent: the receiver did not answer the first callback (${result.error ?? 'no answer'}).`;
      }
      cases.push(entry);
      options.onCase?.(entry);
    }
  } finally {
    if (!options.sender) sender.close();
  }

  const flagged = cases.filter((c) => c.verdict === 'flagged').length;
  const warnings = cases.filter((c) => c.verdict === 'warning').length;
  return { url: options.url, merchant: options.merchant.id, passed: flagged === 0, flagged, warnings, cases };
}

function send(sender: CallbackSender, planned: Planned, options: CheckCallbackOptions, profile: Profile): Promise<CallbackResponse> {
  const body = JSON.stringify(planned.trade);
  const at = (options.now ?? Date.now)();
  const headers = callbackHeaders(profile, { secret: options.merchant.secret, body, eventId: planned.eventId, attempt: 1, at }, planned.signature);
  // The case's name is one more sandbox-only helper: not sent when the profile sends none.
  if (profile.callbacks.sandbox_headers) headers[CHECK_HEADER] = planned.kind;
  return sender.send({ url: options.url, body, timeoutMs: options.timeoutMs ?? 10_000, headers, acknowledge: profile.callbacks.acknowledge });
}

function base(planned: Planned): Pick<CheckCaseResult, 'case' | 'title' | 'expected' | 'sent'> {
  return {
    case: planned.kind,
    title: planned.title,
    expected: planned.expected,
    sent: { trade: planned.trade.id, state: planned.trade.state, event_id: planned.eventId, signature: planned.signature },
  };
}

function describe(planned: Planned, result: CallbackResponse, context: { secretSource: string; firstFailed: boolean }): CheckCaseResult {
  const { verdict, message } = judgeCase(planned.kind, result, context);
  return {
    ...base(planned),
    status: result.status,
    duration_ms: result.duration_ms,
    response: result.response,
    // A refused forged callback is the right outcome, not an error to show.
    ...(result.error !== undefined && (result.status === null || planned.signature === 'valid') ? { error: result.error } : {}),
    verdict,
    message,
  };
}

function skipped(planned: Planned, why: string): CheckCaseResult {
  return { ...base(planned), status: null, duration_ms: 0, response: '', verdict: 'skipped', message: why };
}
