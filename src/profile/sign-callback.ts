import { createHmac } from 'node:crypto';
import type { Profile } from './profile-schema.js';
import { callbackSlots } from './signature-slots.js';
import { signSlots } from './sign-slots.js';
import { standardWebhooksKey } from './standard-webhooks-key.js';

/** One callback attempt, as the sender is about to post it. */
export interface CallbackToSign {
  /** The merchant's secret. */
  secret: string;
  /** The raw body, exactly the bytes sent. */
  body: string;
  /** The event's id, the same on every attempt of it (`cb_<trade id>_<seq>`). */
  eventId: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** When the attempt is sent, in ms since the epoch (the sandbox clock). */
  at: number;
  /** The workspace, for X-Sandbox-Workspace; absent for `default` (as today). */
  workspace?: string;
}

/** The header of a request-style callback signature when the profile names none for requests. */
export const CALLBACK_SIGNATURE_HEADER = 'X-Signature';

/**
 * The headers a callback attempt carries under a profile, besides Content-Type and
 * Content-Length: its signature headers, and the X-Sandbox-* helpers when `sandbox_headers`
 * is true (in the order the sender writes them today: workspace, signature, event id, attempt).
 *
 * - `sandbox`: X-Signature = hex HMAC-SHA256 of the raw body keyed with the secret.
 * - `request-style`: the body's values (CALLBACK_SIGNATURE_FIELDS) signed like a request, in
 *   `requests.signature.header`, or X-Signature when the profile leaves that out.
 * - `standard-webhooks`: webhook-id (the event id), webhook-timestamp (seconds),
 *   webhook-signature = `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` keyed with
 *   standardWebhooksKey(secret).
 * - `none`: no signature.
 *
 * @example
 * signCallback(loadProfile('standard-webhooks'), { secret, body, eventId: 'cb_1_1', attempt: 1, at: clock.now() })
 * // { 'webhook-id': 'cb_1_1', 'webhook-timestamp': '1767225600', 'webhook-signature': 'v1,...', 'X-Sandbox-Event-Id': 'cb_1_1', 'X-Sandbox-Attempt': '1' }
 */
export function signCallback(profile: Profile, callback: CallbackToSign): Record<string, string> {
  const helpers = profile.callbacks.sandbox_headers;
  const headers: Record<string, string> = {};
  if (helpers && callback.workspace !== undefined) headers['X-Sandbox-Workspace'] = callback.workspace;
  switch (profile.callbacks.signature) {
    case 'sandbox':
      headers['X-Signature'] = createHmac('sha256', callback.secret).update(callback.body, 'utf8').digest('hex');
      break;
    case 'request-style':
      headers[profile.requests.signature.header ?? CALLBACK_SIGNATURE_HEADER] = signSlots(profile.requests.signature, callbackSlots(callback.body), callback.secret);
      break;
    case 'standard-webhooks': {
      const timestamp = String(Math.floor(callback.at / 1000));
      const signed = createHmac('sha256', standardWebhooksKey(callback.secret).bytes).update(`${callback.eventId}.${timestamp}.${callback.body}`, 'utf8').digest('base64');
      headers['webhook-id'] = callback.eventId;
      headers['webhook-timestamp'] = timestamp;
      headers['webhook-signature'] = `v1,${signed}`;
      break;
    }
    case 'none':
      break;
  }
  if (helpers) {
    headers['X-Sandbox-Event-Id'] = callback.eventId;
    headers['X-Sandbox-Attempt'] = String(callback.attempt);
  }
  return headers;
}
