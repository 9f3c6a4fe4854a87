import type { Acknowledgement } from './profile-schema.js';

/** Whether a receiver's answer acknowledged a callback, and if not, why, in words the receiver's developer can act on. */
export type AcknowledgementVerdict = { acknowledged: true } | { acknowledged: false; why: string };

const ACKNOWLEDGED: AcknowledgementVerdict = { acknowledged: true };

const preview = (body: string) => JSON.stringify(body.length > 60 ? `${body.slice(0, 57)}...` : body);

/**
 * Whether a complete answer (status and the first bytes of its body) acknowledges a callback
 * under the profile's `callbacks.acknowledge`:
 *
 * - `2xx`: any 2xx status.
 * - `ok-text`: a 2xx whose body is exactly `OK`: no whitespace around it, upper case. Providers
 *   differ in whether they trim or ignore case; an answer that passes here passes both kinds,
 *   while `ok\n` passes only some, so it is refused here with the reason.
 * - `code-zero`: a 2xx whose body is a JSON object whose `code` is the number 0 (other keys
 *   allowed; `"0"` is a string and refused). The Content-Type is not read, as providers read
 *   the body.
 *
 * @example
 * acknowledges('ok-text', 200, 'OK') // { acknowledged: true }
 * acknowledges('code-zero', 200, '{"code":"0"}') // { acknowledged: false, why: '...' }
 */
export function acknowledges(rule: Acknowledgement, status: number | null, body: string): AcknowledgementVerdict {
  if (status === null || status < 200 || status > 299) {
    return { acknowledged: false, why: `The receiver answered ${status ?? 'no status'}; only a 2xx answer can acknowledge a callback.` };
  }
  if (rule === '2xx') return ACKNOWLEDGED;
  if (rule === 'ok-text') {
    if (body === 'OK') return ACKNOWLEDGED;
    const near = body.trim().toUpperCase() === 'OK';
    return {
      acknowledged: false,
      why: near
        ? `The receiver answered ${status} with ${preview(body)}; this profile acknowledges only the body OK exactly (upper case, nothing around it), since a provider may compare it byte for byte.`
        : `The receiver answered ${status} with ${preview(body)}; this profile acknowledges a callback only when the body is OK.`,
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { acknowledged: false, why: `The receiver answered ${status} with ${preview(body)}, which is not JSON; this profile acknowledges a callback only with the JSON {"code":0}.` };
  }
  const code = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>)['code'] : undefined;
  if (code === 0) return ACKNOWLEDGED;
  return {
    acknowledged: false,
    why: `The receiver answered ${status} with ${preview(body)}; this profile acknowledges a callback only with a JSON object whose code is the number 0, e.g. {"code":0}${typeof code === 'string' ? ' (a string "0" is not the number 0)' : ''}.`,
  };
}
