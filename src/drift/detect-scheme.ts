import { AUTH_HEADER } from '../auth/authenticate.js';
import type { SignedEndpoint } from '../auth/string-to-sign.js';
import { BUILTIN_PROFILE_NAMES } from '../profile/builtin-profile-names.js';
import { loadProfile } from '../profile/load-profile.js';
import { callbackSchemes, verifyingCallbackSchemes } from './callback-schemes.js';
import type { CapturedRequest } from './read-capture.js';
import { builtinSigners } from './request-signer.js';

/** One scheme tried on a capture: whether it verified, and if not, why in a word. */
export interface SchemeTried {
  /** The scheme, as the table names it. */
  name: string;
  label: string;
  /** The built-in profiles that sign so. */
  profiles: string[];
  verified: boolean;
  /** Why it did not verify: the header it reads was missing, or the signature differs. */
  why?: string;
}

export interface Detection {
  kind: 'request' | 'callback';
  /** Of a request: the endpoint its method and path name. */
  endpoint?: SignedEndpoint;
  tried: SchemeTried[];
  /** What else is worth knowing, e.g. that a trailing newline had to be taken off the body. */
  notes: string[];
}

/** A provider request's endpoint and the values of its signature parameters, from its method, path and body. */
function requestValues(capture: CapturedRequest): { endpoint: SignedEndpoint; values: Record<string, unknown> } {
  let path: string;
  try {
    path = new URL(capture.url, 'http://capture.invalid').pathname;
  } catch {
    path = capture.url;
  }
  const built = /\/api\/v1\/trades\/deposit\/(create|build)\/?$/.exec(path);
  if (capture.method === 'POST' && built) {
    let body: unknown;
    try {
      body = JSON.parse(capture.body);
    } catch {
      throw new Error(`The captured ${built[1]} request's body is not JSON, so its signed values cannot be read: ${JSON.stringify(capture.body.slice(0, 80))}.`);
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Error('The captured request body is not a JSON object.');
    return { endpoint: built[1] as 'create' | 'build', values: body as Record<string, unknown> };
  }
  const read = /\/api\/v1\/trades\/([^/]+)\/([^/]+)\/?$/.exec(path);
  if (capture.method === 'GET' && read) return { endpoint: 'get', values: { merchant: decodeURIComponent(read[1] ?? ''), uuid: decodeURIComponent(read[2] ?? '') } };
  throw new Error(
    `${capture.method} ${path} is none of the three endpoints (POST .../api/v1/trades/deposit/create, POST .../api/v1/trades/deposit/build, GET .../api/v1/trades/:merchant/:uuid). For a callback, pass it with --callback.`,
  );
}

const profilesSigningAs = (signing: unknown) => BUILTIN_PROFILE_NAMES.filter((name) => JSON.stringify(loadProfile(name).requests.signature) === JSON.stringify(signing));

/**
 * Which built-in request signings verify a captured provider request with the secret: for each,
 * the header it reads (the token header, or its own) and whether the value there is the
 * signature of the request's values.
 *
 * @example
 * detectRequestScheme(readCapture(text, 'create.http'), secret).tried.filter((t) => t.verified).map((t) => t.profiles)
 */
export function detectRequestScheme(capture: CapturedRequest, secret: string): Detection {
  const { endpoint, values } = requestValues(capture);
  const tried: SchemeTried[] = [];
  for (const signer of builtinSigners()) {
    const signing = signer.signing;
    if (!signing) continue;
    const header = signing.header ?? AUTH_HEADER[endpoint];
    const sent = capture.headers[header.toLowerCase()]?.trim();
    const expected = signer.headers(endpoint, values, { merchant: '', token: '', secret })[header];
    const verified = sent !== undefined && expected !== undefined && (signing.encoding === 'hex' ? sent.toLowerCase() === expected.toLowerCase() : sent === expected);
    tried.push({
      name: signer.id,
      label: signer.label,
      profiles: profilesSigningAs(signing),
      verified,
      ...(verified ? {} : { why: sent === undefined ? `no ${header} header` : `${header} is not this signature` }),
    });
  }
  const notes: string[] = [];
  if (!tried.some((t) => t.verified))
    notes.push(
      `If ${AUTH_HEADER[endpoint]} holds the merchant's token, the request may carry no signature at all; a signature elsewhere, or another algorithm, separator or encoding, is none of the built-ins': write a profile for it (docs/provider-profile.md).`,
    );
  return { kind: 'request', endpoint, tried, notes };
}

/**
 * Which built-in callback schemes verify a captured callback with the secret. A body that
 * verifies only without its trailing newline (an editor adds one when the capture is saved) is
 * said so in the notes.
 */
export function detectCallbackScheme(capture: CapturedRequest, secret: string): Detection {
  const schemes = callbackSchemes();
  const attempt = (body: string) => new Set(verifyingCallbackSchemes({ headers: capture.headers, body }, secret, schemes).map((scheme) => scheme.id));
  let verified = attempt(capture.body);
  const notes: string[] = [];
  const trimmed = capture.body.replace(/[\r\n]+$/, '');
  if ([...verified].every((id) => id === 'none') && trimmed !== capture.body) {
    const again = attempt(trimmed);
    if ([...again].some((id) => id !== 'none')) {
      verified = again;
      notes.push('It verifies once the newline at the end of the body is taken off: the body the provider signed ends before it (the file was saved with one more).');
    }
  }
  const tried = schemes.map((scheme) => {
    const ok = verified.has(scheme.id);
    const missing = scheme.headers.find((name) => capture.headers[name] === undefined);
    return {
      name: scheme.name,
      label: scheme.label,
      profiles: scheme.profiles,
      verified: ok,
      ...(ok ? {} : { why: scheme.id === 'none' ? 'the callback carries a signature header' : missing ? `no ${missing} header` : 'the signature differs' }),
    };
  });
  return { kind: 'callback', tried, notes };
}
