import type { CallbackResponse } from '../callbacks/callback-sender.js';
import { acknowledgingAnswer } from '../callbacks/acknowledging-answer.js';
import { describeCallbackSignature } from '../callbacks/callback-headers.js';
import type { Profile } from '../profile/profile-schema.js';
import type { CheckCase, CheckVerdict } from './check-report.js';

export interface Judgement {
  verdict: CheckVerdict;
  message: string;
}

/** What the provider profile makes of a callback, as advice names it (judgeContext()). */
export interface ProfileWords {
  /** The answer that acknowledges a callback, e.g. `2xx` or `2xx with the body OK`. */
  ack: string;
  /** Whether the rule reads more than the status (ok-text, code-zero). */
  readsBody: boolean;
  /** The signature header and what it holds; undefined when callbacks are unsigned. */
  signature: { header: string; how: string } | undefined;
  /** Whether callbacks carry X-Sandbox-Event-Id (sandbox_headers). */
  eventIds: boolean;
  /** Whether the signature is the sandbox's own (its long-standing words apply). */
  sandboxScheme: boolean;
}

/** What the profile makes of a callback, for the advice of judgeCase(). */
export function profileWords(profile: Profile): ProfileWords {
  const rule = profile.callbacks.acknowledge;
  return {
    ack: acknowledgingAnswer(rule),
    readsBody: rule !== '2xx',
    signature: describeCallbackSignature(profile),
    eventIds: profile.callbacks.sandbox_headers,
    sandboxScheme: profile.callbacks.signature === 'sandbox',
  };
}

/** The sandbox profile's words: the messages as they always were. */
export const SANDBOX_WORDS: ProfileWords = {
  ack: '2xx',
  readsBody: false,
  signature: { header: 'X-Signature', how: "hex HMAC-SHA256 of the raw body with the merchant's secret" },
  eventIds: true,
  sandboxScheme: true,
};

const is2xx = (status: number | null): status is number => status !== null && status >= 200 && status < 300;

const VERIFY =
  "Verify X-Signature before doing anything else: it is the lowercase hex HMAC-SHA256 of the raw body bytes, keyed with the merchant's secret; compare it in constant time and answer 401 when it does not match.";

/** How to verify, in the profile's terms (the sandbox's long-standing words under its own scheme). */
function verify(words: ProfileWords): string {
  if (words.sandboxScheme || words.signature === undefined) return VERIFY;
  return `Verify ${words.signature.header} before doing anything else: it is ${words.signature.how}; compare it in constant time and answer 401 when it does not match.`;
}

/** "answered 500 ("Internal error")" or the sender's own words when no answer came. */
function answered(result: CallbackResponse): string {
  if (result.status === null) return result.error ?? 'No answer came.';
  const body = result.response.trim();
  // For a 4xx or 5xx the sender's own words only repeat the status; for a redirect or a cut-off answer they explain it.
  const why = result.error !== undefined && result.status < 400 ? ` ${result.error}` : '';
  return `It answered ${result.status}${body ? ` (${JSON.stringify(body.length > 80 ? `${body.slice(0, 77)}...` : body)})` : ''}.${why}`;
}

/** Advice to a receiver that refused a genuine callback with 401 or 403. */
function checkTheSignature(words: ProfileWords, secretSource: string): string {
  if (words.signature === undefined) {
    return 'This provider profile sends callbacks unsigned (callbacks.signature: none), so there is no signature to check: a receiver that asks for one refuses every callback.';
  }
  if (words.sandboxScheme) {
    return `Check the signature the way the sandbox makes it: lowercase hex HMAC-SHA256 of the raw body bytes as received (not re-serialised JSON), keyed with the merchant's secret (this check used ${secretSource}), compared case-insensitively.`;
  }
  return `Check the signature the way this provider profile makes it: ${words.signature.header} is ${words.signature.how}, over the bytes as received (not re-serialised JSON) (this check used ${secretSource}).`;
}

/**
 * The verdict on one case of a receiver check, from the receiver's answer. `firstFailed`
 * says the valid callback itself was not accepted (so later failures likely share its cause).
 */
export function judgeCase(kind: CheckCase, result: CallbackResponse, context: { secretSource: string; firstFailed: boolean; words?: ProfileWords }): Judgement {
  // result.ok: the answer acknowledged the callback under the profile's rule (the sender judged it).
  const ok = is2xx(result.status) && result.ok;
  const words = context.words ?? SANDBOX_WORDS;
  const { ack } = words;
  switch (kind) {
    case 'valid': {
      if (ok) return { verdict: 'ok', message: `Accepted a correctly signed callback (${result.status}).` };
      if (result.status === 401 || result.status === 403) {
        return {
          verdict: 'flagged',
          message: `Refused a correctly signed callback. ${answered(result)} ${checkTheSignature(words, context.secretSource)}`,
        };
      }
      return {
        verdict: 'flagged',
        message: `Did not accept a correctly signed callback. ${answered(result)} Answer ${ack} once the callback is verified and stored; anything else is retried by the service and finally marked failed. Answer quickly and do slow work afterwards.`,
      };
    }
    case 'duplicate': {
      if (ok) return { verdict: 'ok', message: `Accepted the same event again (${result.status}).` };
      return {
        verdict: 'flagged',
        message: words.eventIds
          ? `${context.firstFailed ? 'The first copy was not accepted either; fix that first. ' : ''}Did not accept a repeat of the same event (same X-Sandbox-Event-Id, body and signature). ${answered(result)} Callbacks arrive at least once: answer ${ack} to a repeat without doing the work twice (remember handled event ids, or make the update idempotent).`
          : `${context.firstFailed ? 'The first copy was not accepted either; fix that first. ' : ''}Did not accept a repeat of the same callback (same body and signature). ${answered(result)} Callbacks arrive at least once: answer ${ack} to a repeat without doing the work twice (remember the trade ids and states handled, or make the update idempotent).`,
      };
    }
    case 'older_state': {
      if (ok) {
        return {
          verdict: 'ok',
          message: `Answered ${result.status} to "created" arriving after "confirmed". Make sure it was ignored: an older state must not move the order back (this check cannot see your data).`,
        };
      }
      return {
        verdict: 'flagged',
        message: `${context.firstFailed ? 'The first callback was not accepted either; fix that first. ' : ''}Did not accept "created" arriving after "confirmed" for the same trade. ${answered(result)} Answer ${ack} and ignore it (keep the newer state): ${words.readsBody ? 'any other answer' : 'a non-2xx answer'} makes the service retry a callback that can never succeed.`,
      };
    }
    case 'bad_signature':
    case 'no_signature': {
      const header = words.signature?.header ?? 'X-Signature';
      const what = kind === 'bad_signature' ? `whose ${header} is wrong` : `without an ${header} header`;
      // Under ok-text or code-zero only the acknowledging answer accepts; another 2xx refuses, if quietly.
      if (ok || (!words.readsBody && is2xx(result.status))) {
        return {
          verdict: 'flagged',
          message: `Accepted a callback ${what} (${result.status}): anyone who can reach this URL could mark orders paid. ${verify(words)}`,
        };
      }
      if (is2xx(result.status)) {
        return {
          verdict: 'warning',
          message: `Refused a callback ${what} with ${result.status} and a body this profile does not count as an acknowledgement. Answer 401 or 403, so the refusal shows as one in your logs and monitoring.`,
        };
      }
      if (result.status !== null && result.status >= 400 && result.status < 500) {
        return { verdict: 'ok', message: `Refused a callback ${what} (${result.status}).` };
      }
      if (result.status === null) {
        return { verdict: 'warning', message: `Did not answer a callback ${what}. ${answered(result)} It was not accepted, but answer 401 promptly instead.` };
      }
      return {
        verdict: 'warning',
        message: `Refused a callback ${what}, but with ${result.status}. Answer 401 or 403: ${result.status >= 500 ? 'a 5xx reads as an outage in your logs and monitoring' : 'a redirect is never followed'}.`,
      };
    }
  }
}
