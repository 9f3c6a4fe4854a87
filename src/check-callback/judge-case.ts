import type { CallbackResponse } from '../callbacks/callback-sender.js';
import type { CheckCase, CheckVerdict } from './check-report.js';

export interface Judgement {
  verdict: CheckVerdict;
  message: string;
}

const is2xx = (status: number | null): status is number => status !== null && status >= 200 && status < 300;

const VERIFY =
  "Verify X-Signature before doing anything else: it is the lowercase hex HMAC-SHA256 of the raw body bytes, keyed with the merchant's secret; compare it in constant time and answer 401 when it does not match.";

/** "answered 500 ("Internal error")" or the sender's own words when no answer came. */
function answered(result: CallbackResponse): string {
  if (result.status === null) return result.error ?? 'No answer came.';
  const body = result.response.trim();
  // For a 4xx or 5xx the sender's own words only repeat the status; for a redirect or a cut-off answer they explain it.
  const why = result.error !== undefined && result.status < 400 ? ` ${result.error}` : '';
  return `It answered ${result.status}${body ? ` (${JSON.stringify(body.length > 80 ? `${body.slice(0, 77)}...` : body)})` : ''}.${why}`;
}

/**
 * The verdict on one case of a receiver check, from the receiver's answer. `firstFailed`
 * says the valid callback itself was not accepted (so later failures likely share its cause).
 */
export function judgeCase(kind: CheckCase, result: CallbackResponse, context: { secretSource: string; firstFailed: boolean }): Judgement {
  const ok = is2xx(result.status) && result.ok;
  switch (kind) {
    case 'valid': {
      if (ok) return { verdict: 'ok', message: `Accepted a correctly signed callback (${result.status}).` };
      if (result.status === 401 || result.status === 403) {
        return {
          verdict: 'flagged',
          message: `Refused a correctly signed callback. ${answered(result)} Check the signature the way the sandbox makes it: lowercase hex HMAC-SHA256 of the raw body bytes as received (not re-serialised JSON), keyed with the merchant's secret (this check used ${context.secretSource}), compared case-insensitively.`,
        };
      }
      return {
        verdict: 'flagged',
        message: `Did not accept a correctly signed callback. ${answered(result)} Answer 2xx once the callback is verified and stored; anything else is retried by the service and finally marked failed. Answer quickly and do slow work afterwards.`,
      };
    }
    case 'duplicate': {
      if (ok) return { verdict: 'ok', message: `Accepted the same event again (${result.status}).` };
      return {
        verdict: 'flagged',
        message: `${context.firstFailed ? 'The first copy was not accepted either; fix that first. ' : ''}Did not accept a repeat of the same event (same X-Sandbox-Event-Id, body and signature). ${answered(result)} Callbacks arrive at least once: answer 2xx to a repeat without doing the work twice (remember handled event ids, or make the update idempotent).`,
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
        message: `${context.firstFailed ? 'The first callback was not accepted either; fix that first. ' : ''}Did not accept "created" arriving after "confirmed" for the same trade. ${answered(result)} Answer 2xx and ignore it (keep the newer state): a non-2xx answer makes the service retry a callback that can never succeed.`,
      };
    }
    case 'bad_signature':
    case 'no_signature': {
      const what = kind === 'bad_signature' ? 'whose X-Signature is wrong' : 'without an X-Signature header';
      if (ok || is2xx(result.status)) {
        return {
          verdict: 'flagged',
          message: `Accepted a callback ${what} (${result.status}): anyone who can reach this URL could mark orders paid. ${VERIFY}`,
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
