import { callbackSignatureHeader } from '../callbacks/callback-headers.js';
import { BUILTIN_PROFILE_NAMES } from '../profile/builtin-profile-names.js';
import { loadProfile } from '../profile/load-profile.js';
import type { Profile } from '../profile/profile-schema.js';
import { CALLBACK_SIGNATURE_HEADER, signCallback } from '../profile/sign-callback.js';
import { CALLBACK_SIGNATURE_FIELDS } from '../profile/signature-slots.js';
import { signingLabel } from '../profile/sign-slots.js';

/** One way a callback may be signed, as the built-in profiles (or the run's profile) sign them. */
export interface CallbackScheme {
  /** Stable: two schemes are the same when their ids are. */
  id: string;
  /** Short, for the table: `sandbox`, `standard-webhooks`, `request-style (MD5, hex)`, `none`. */
  name: string;
  /** In words, with where the signature travels. */
  label: string;
  /** The profiles that sign callbacks so. */
  profiles: string[];
  /** One of them: its callbacks.signature, and for request-style its requests.signature, is the scheme. */
  profile: Profile;
  /** The headers the signature travels in. */
  headers: string[];
}

/** A captured callback, as verification reads it: headers (names lowercased) and the raw body. */
export interface SignedCallback {
  headers: Readonly<Record<string, string>>;
  body: string;
}

const STANDARD_WEBHOOKS_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'];

function schemeOf(profile: Profile): Omit<CallbackScheme, 'profiles'> {
  const kind = profile.callbacks.signature;
  if (kind === 'sandbox') return { id: 'sandbox', name: 'sandbox', label: 'X-Signature: hex HMAC-SHA256 of the raw body, keyed with the secret', profile, headers: ['x-signature'] };
  if (kind === 'standard-webhooks') {
    return {
      id: 'standard-webhooks',
      name: 'standard-webhooks',
      label: 'Standard Webhooks: webhook-signature v1, base64 HMAC-SHA256 of id.timestamp.body',
      profile,
      headers: STANDARD_WEBHOOKS_HEADERS,
    };
  }
  if (kind === 'none') return { id: 'none', name: 'none', label: 'unsigned: no signature header', profile, headers: [] };
  const signing = profile.requests.signature;
  const header = callbackSignatureHeader(profile) ?? CALLBACK_SIGNATURE_HEADER;
  const secret = signing.secret === 'key' ? 'keyed with the secret' : `the secret as the ${signing.secret === 'last-slot' ? 'last' : 'first'} slot`;
  return {
    id: `request-style:${signing.algorithm}:${JSON.stringify(signing.separator)}:${signing.secret}:${signing.encoding}:${header.toLowerCase()}`,
    name: `request-style (${signingLabel(signing)}${signing.separator === '::' ? '' : `, ${JSON.stringify(signing.separator)}`}${signing.secret === 'key' ? '' : `, secret ${signing.secret}`}, ${header})`,
    label: `${header}: ${signingLabel(signing)} of the body's ${CALLBACK_SIGNATURE_FIELDS.join(', ')} joined with ${JSON.stringify(signing.separator)}, ${secret}`,
    profile,
    headers: [header.toLowerCase()],
  };
}

/**
 * The distinct callback schemes of the built-in profiles, then of `extra` profiles (the run's),
 * each with the profiles that sign so, and `none` (no built-in sends callbacks unsigned, but a
 * provider may).
 *
 * @example
 * callbackSchemes().map((scheme) => scheme.name) // ['sandbox', 'request-style (SHA-256, hex, secret last-slot, X-Signature)', ...]
 */
export function callbackSchemes(extra: readonly Profile[] = []): CallbackScheme[] {
  const schemes = new Map<string, CallbackScheme>();
  for (const profile of [...BUILTIN_PROFILE_NAMES.map((name) => loadProfile(name)), ...extra]) {
    const scheme = schemeOf(profile);
    const known = schemes.get(scheme.id);
    if (known) {
      if (!known.profiles.includes(profile.name)) known.profiles.push(profile.name);
    } else {
      schemes.set(scheme.id, { ...scheme, profiles: [profile.name] });
    }
  }
  if (!schemes.has('none')) {
    const sandbox = loadProfile('sandbox');
    schemes.set('none', { ...schemeOf({ ...sandbox, callbacks: { ...sandbox.callbacks, signature: 'none' } }), profiles: [] });
  }
  return [...schemes.values()];
}

/**
 * The schemes whose signature the callback carries, verified with the secret (hex in either
 * case, base64 exactly; any of Standard Webhooks' space-separated signatures). `none` verifies
 * a callback that carries no signature header of any scheme.
 *
 * @example
 * verifyingCallbackSchemes({ headers, body }, secret, callbackSchemes()).map((scheme) => scheme.name) // ['standard-webhooks']
 */
export function verifyingCallbackSchemes(callback: SignedCallback, secret: string, schemes: readonly CallbackScheme[]): CallbackScheme[] {
  const signatureHeaders = new Set(schemes.flatMap((scheme) => scheme.headers));
  const unsigned = ![...signatureHeaders].some((name) => callback.headers[name] !== undefined);
  return schemes.filter((scheme) => (scheme.id === 'none' ? unsigned : verifies(callback, secret, scheme)));
}

function verifies(callback: SignedCallback, secret: string, scheme: CallbackScheme): boolean {
  const header = (name: string) => callback.headers[name.toLowerCase()]?.trim();
  if (scheme.id === 'standard-webhooks') {
    const id = header('webhook-id');
    const timestamp = Number(header('webhook-timestamp'));
    const sent = header('webhook-signature');
    if (id === undefined || !Number.isFinite(timestamp) || sent === undefined) return false;
    const expected = signCallback(scheme.profile, { secret, body: callback.body, eventId: id, attempt: 1, at: timestamp * 1000 })['webhook-signature'];
    return sent.split(/\s+/).includes(expected ?? '');
  }
  const name = scheme.headers[0];
  const sent = name === undefined ? undefined : header(name);
  if (sent === undefined || name === undefined) return false;
  const signed = signCallback(scheme.profile, { secret, body: callback.body, eventId: 'drift', attempt: 1, at: 0 });
  const expected = Object.entries(signed).find(([key]) => key.toLowerCase() === name)?.[1];
  if (expected === undefined) return false;
  const hex = scheme.id === 'sandbox' || scheme.profile.requests.signature.encoding === 'hex';
  return hex ? sent.toLowerCase() === expected.toLowerCase() : sent === expected;
}

/** Every header a callback signature of these schemes travels in, lowercased. */
export function signatureHeaders(schemes: readonly CallbackScheme[]): string[] {
  return [...new Set(schemes.flatMap((scheme) => scheme.headers))];
}
