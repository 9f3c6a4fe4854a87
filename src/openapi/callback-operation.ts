import type { Profile } from '../profile/profile-schema.js';
import { describeSigning } from '../profile/sign-request.js';
import { CALLBACK_SIGNATURE_HEADER } from '../profile/sign-callback.js';
import { callbackSignatureHeader } from '../callbacks/callback-headers.js';

type Json = Record<string, unknown>;

/** The callback of a created trade, under OpenAPI's `callbacks` of create and build: POST to the trade's callback_url. */
export const CALLBACK_NAME = 'tradeStateChanged';
const CALLBACK_URL = '{$request.body#/callback_url}';

const header = (name: string, description: string, example?: string): Json => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string', ...(example !== undefined ? { examples: [example] } : {}) },
});

/** The headers a callback carries under the profile (src/profile/sign-callback.ts), besides Content-Type. */
function callbackHeaders(profile: Profile): Json[] {
  const out: Json[] = [];
  switch (profile.callbacks.signature) {
    case 'sandbox':
      out.push(header('X-Signature', "Lowercase hex HMAC-SHA256 of the raw body, keyed with the merchant's secret. Verify the bytes as received, before parsing."));
      break;
    case 'request-style': {
      const signing = describeSigning(profile, 'create', {});
      out.push(
        header(
          callbackSignatureHeader(profile) ?? CALLBACK_SIGNATURE_HEADER,
          `The body's values id, order, merchant, state, amount_cents, amount_currency and rate, signed like a request: ${signing.algorithm}, ${signing.key}, joined with ${JSON.stringify(profile.requests.signature.separator)}.`,
        ),
      );
      break;
    }
    case 'standard-webhooks':
      out.push(
        header('webhook-id', 'The event id, the same on every attempt of it: deduplicate on it or on the trade id and state.'),
        header('webhook-timestamp', 'When the attempt was sent, in seconds since the epoch (wall clock).'),
        header(
          'webhook-signature',
          "v1, then the base64 HMAC-SHA256 of id.timestamp.body keyed with the merchant's Standard Webhooks key (its secret when that is whsec_ and base64, else whsec_ + the base64 of the secret). Verify it with a Standard Webhooks library.",
          'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
        ),
      );
      break;
    case 'none':
      break;
  }
  if (profile.callbacks.sandbox_headers) {
    out.push(
      header('X-Sandbox-Event-Id', 'A sandbox-only helper (sandbox_headers): one id per event, cb_<trade id>_<n>. Deduplicate on the trade id and state, which every provider sends.'),
      header('X-Sandbox-Attempt', 'A sandbox-only helper (sandbox_headers): 1 for the first attempt, then 2, 3, ...'),
      { ...header('X-Sandbox-Workspace', 'A sandbox-only helper (sandbox_headers): the workspace (/w/<name>) of the trade; absent for the unprefixed one.'), required: false },
    );
  }
  return out;
}

/** What acknowledges a callback under the profile, as the answers the receiver gives. */
function acknowledgement(profile: Profile): Json {
  const rule = profile.callbacks.acknowledge;
  const retries = "Any other answer, a redirect, or none within the callback timeout is a failed attempt, retried on the profile's schedule (callbacks.retries, or --callback-retries).";
  if (rule === 'ok-text') {
    return { '200': { description: `Acknowledged: a 2xx whose body is exactly OK. ${retries}`, content: { 'text/plain': { schema: { type: 'string', const: 'OK' } } } } };
  }
  if (rule === 'code-zero') {
    return {
      '200': {
        description: `Acknowledged: a 2xx whose body is a JSON object with "code": 0 (other keys allowed). ${retries}`,
        content: { 'application/json': { schema: { type: 'object', required: ['code'], properties: { code: { const: 0 } } } } },
      },
    };
  }
  return { '2XX': { description: `Acknowledged: any 2xx answer. ${retries}` } };
}

/**
 * The OpenAPI description of the callback a created trade with a callback_url gets, under a
 * provider profile: POST of the trade (the get view) to its callback_url on every state change
 * (or only the final one, send_on), the headers of the profile's signature scheme and helpers,
 * and the answer that acknowledges it.
 *
 * @example
 * operation.callbacks = callbackOperation(loadProfile('standard-webhooks'));
 */
export function callbackOperation(profile: Profile): Json {
  return {
    [CALLBACK_NAME]: {
      [CALLBACK_URL]: {
        post: {
          summary: profile.callbacks.send_on === 'final-only' ? "The trade reached a final state (the trade's callback_url)" : "The trade's state changed (the trade's callback_url)",
          description:
            "Sent to the callback_url of the create or build request, with the trade as GET answers it. Each of a trade's callbacks waits until the one before it is acknowledged or failed. A callback may come more than once: credit a trade once, by its id and state.",
          parameters: callbackHeaders(profile),
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Trade' } } } },
          responses: acknowledgement(profile),
        },
      },
    },
  };
}
