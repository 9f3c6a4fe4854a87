import type { Merchant, MerchantDirectory } from '../merchants/fixtures.js';
import { merchantField } from '../trades/requests.js';
import { amountWrittenAsFloat } from './amount-written-as-float.js';
import { SANDBOX_SCHEMES, type SignatureScheme } from './signature-scheme.js';
import { safeEqual, sign, stringToSign, type SignedEndpoint } from './signature.js';
import { Refusal, refuse } from '../refusals/refusal.js';

export const AUTH_MODES = ['token', 'signature', 'either', 'off'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/** The header each endpoint reads (contract §4). */
export const AUTH_HEADER: Record<SignedEndpoint, 'X-Auth' | 'X-Token'> = {
  create: 'X-Auth',
  build: 'X-Auth',
  get: 'X-Token',
};

const ENDPOINT_LABEL: Record<SignedEndpoint, string> = {
  create: 'POST /api/v1/trades/deposit/create',
  build: 'POST /api/v1/trades/deposit/build',
  get: 'GET /api/v1/trades/:merchant/:uuid',
};

export interface AuthRequest {
  mode: AuthMode;
  endpoint: SignedEndpoint;
  /** Reads a request header, case-insensitively. */
  header: (name: string) => string | undefined;
  merchantId: unknown;
  /** The values of the endpoint's signature parameters. */
  values: Readonly<Record<string, unknown>>;
  /** How signatures are made and where they travel: the provider profile's; the sandbox's own when left out. */
  scheme?: SignatureScheme;
}

function accepted(mode: AuthMode, scheme: SignatureScheme, headerName: string): string {
  if (mode === 'token' || scheme.header.toLowerCase() !== headerName.toLowerCase()) return "the merchant's token";
  if (mode === 'signature') return `a signature (${scheme.algorithm} keyed with the merchant's secret)`;
  return `the merchant's token or a signature (${scheme.algorithm} keyed with the merchant's secret)`;
}

/**
 * Checks the auth header of a provider request and returns the merchant, or a refusal
 * (`unauthorized`, the HTTP layer's 401) that says why. In this order: the endpoint's header is present (unless --auth off);
 * on the create endpoints the body's `merchant` is a UUID (a 422 otherwise, like every
 * other body field); the merchant is known (in every mode, --auth off included); the
 * header holds what the mode accepts. Never reveals a secret or token.
 */
export function authenticate(merchants: MerchantDirectory, request: AuthRequest): Merchant | Refusal {
  const { mode, endpoint } = request;
  const scheme = request.scheme ?? SANDBOX_SCHEMES[endpoint];
  const headerName = AUTH_HEADER[endpoint];
  const value = request.header(headerName)?.trim();

  if (mode !== 'off' && (value === undefined || value === '')) return missingHeader(request, headerName, scheme);

  const merchant = knownMerchant(merchants, endpoint, request.merchantId);
  if (merchant instanceof Refusal) return merchant;
  if (mode === 'off' || value === undefined) return merchant;

  if ((mode === 'token' || mode === 'either') && safeEqual(value, merchant.token)) return merchant;

  // The signature travels in the token's header (the sandbox's way), or in a header of its own beside the token.
  const apart = scheme.header.toLowerCase() !== headerName.toLowerCase();
  const signed = apart ? request.header(scheme.header)?.trim() : value;
  const signatureName = scheme.header;
  const message = scheme.shown(request.values);
  const looksSigned = signed !== undefined && scheme.looksSigned(signed);
  if ((mode === 'signature' || mode === 'either') && signed !== undefined && looksSigned && scheme.verify(merchant.secret, request.values, signed)) {
    return merchant;
  }

  const owner = merchants.list().find((other) => other.id !== merchant.id && safeEqual(value, other.token));
  if (owner && mode !== 'signature') {
    return refuse.unauthorized(
      'invalid_token',
      `${headerName} holds the token of merchant ${owner.id}, but the request is for merchant ${merchant.id}. Send the token of the merchant named ${endpoint === 'get' ? 'in the path' : 'in the body field "merchant"'}.`,
      { field: headerName, message: 'the token of another merchant' },
    );
  }

  if (mode === 'token') {
    return refuse.unauthorized(
      'invalid_token',
      !apart && looksSigned
        ? `${headerName} looks like a signature, but this sandbox runs with --auth token: send merchant ${merchant.id}'s static token from the fixtures file instead (or restart with --auth either to accept both).`
        : `${headerName} is not the token of merchant ${merchant.id}. This sandbox runs with --auth token: send the merchant's static token from the fixtures file.`,
      { field: headerName, message: "not the merchant's token" },
    );
  }

  if (apart && (signed === undefined || signed === '')) return missingSignature(merchant, request, headerName, scheme, message);

  const sent = signed ?? '';
  const sentSecret = merchants.list().some((other) => sent.includes(other.secret));
  const sentToken = safeEqual(sent, merchant.token) || merchants.list().some((other) => other.id !== merchant.id && safeEqual(sent, other.token));
  const why = sentSecret
    ? `${signatureName} holds a merchant secret itself. Never send the secret: send the ${scheme.short}.`
    : sentToken
      ? `${signatureName} holds a token, but this sandbox runs with --auth signature: send the signature instead (or restart with --auth either to accept tokens too).`
      : apart && mode === 'either'
        ? `${headerName} is not the merchant's token, and ${signatureName} is not a valid signature.`
        : `${signatureName} is ${mode === 'either' ? "neither the merchant's token nor" : 'not'} a valid signature.`;
  const preview = sentSecret ? '(a merchant secret, not shown)' : sent.length > 80 ? `${sent.slice(0, 77)}...` : sent;
  const float = looksSigned ? amountWrittenAsFloat((values) => scheme.verify(merchant.secret, values, sent), endpoint, request.values) : undefined;
  if (float !== undefined) {
    const amount = String(request.values['amount_cents']);
    return refuse.unauthorized(
      'signature_mismatch',
      `amount_cents was written ${float}; the string to sign uses ${amount}: send an integer. The signature verifies over ${JSON.stringify(scheme.shown({ ...request.values, amount_cents: float }))}, so it was computed from a float (e.g. Python's 100.0). Send amount_cents as a JSON integer and sign the same integer: the sandbox signs ${JSON.stringify(message)}.`,
      { field: 'amount_cents', message: `written ${float}; send the integer ${amount}` },
      { header: signatureName, algorithm: scheme.algorithm, string_to_sign: message, received: preview },
    );
  }
  return refuse.unauthorized(
    'signature_mismatch',
    `${why} The sandbox expects ${scheme.expects(merchant.id, message)}. Compare your string to sign with this one: field order, empty slots for absent fields, and the ${JSON.stringify(scheme.separator)} separator.`,
    { field: signatureName, message: mode === 'either' ? "neither the merchant's token nor a valid signature" : 'not a valid signature' },
    { header: signatureName, algorithm: scheme.algorithm, string_to_sign: message, received: preview },
  );
}

/** A profile that signs in a header of its own (X-Signature), and the request left it out. */
function missingSignature(merchant: Merchant, request: AuthRequest, headerName: string, scheme: SignatureScheme, message: string): Refusal {
  return refuse.unauthorized(
    'missing_signature',
    `The ${scheme.header} header is missing${request.mode === 'either' ? `, and ${headerName} is not the merchant's token` : ''}. This sandbox's provider profile signs requests in ${scheme.header}, beside the token in ${headerName}: send the ${scheme.expects(merchant.id, message)}.`,
    { field: scheme.header, message: 'missing' },
    { header: scheme.header, algorithm: scheme.algorithm, string_to_sign: message, received: '' },
  );
}

function missingHeader(request: AuthRequest, headerName: 'X-Auth' | 'X-Token', scheme: SignatureScheme): Refusal {
  const otherName = headerName === 'X-Auth' ? 'X-Token' : 'X-Auth';
  if (request.header(otherName) !== undefined) {
    return refuse.unauthorized(
      'wrong_auth_header',
      `${ENDPOINT_LABEL[request.endpoint]} reads the ${headerName} header, but the request sent ${otherName}. Send the same value in ${headerName}: the create endpoints use X-Auth, get uses X-Token.`,
      { field: headerName, message: `missing; ${otherName} was sent instead` },
    );
  }
  return refuse.unauthorized(
    'missing_auth_header',
    // No token as an example: answers never carry a credential (the README lists the demo merchant's).
    `The ${headerName} header is missing. Send ${accepted(request.mode, scheme, headerName)} in it, e.g. "${headerName}: <the merchant's token from the fixtures file>".`,
    { field: headerName, message: 'missing' },
  );
}

/**
 * The merchant the request names. On the create endpoints a missing or malformed body
 * `merchant` is invalid (a 422 validation error, like every other body field); on get, whose
 * only documented failures are 401 and 404, any merchant not in the fixtures is unauthorized.
 */
function knownMerchant(merchants: MerchantDirectory, endpoint: SignedEndpoint, merchantId: unknown): Merchant | Refusal {
  if (endpoint !== 'get') {
    const shape = merchantField.safeParse(merchantId);
    if (!shape.success) {
      const message = shape.error.issues[0]?.message ?? 'merchant must be your merchant UUID.';
      return refuse.invalid('validation_failed', message, [{ field: 'merchant', message }]);
    }
  }
  const id = typeof merchantId === 'string' ? merchantId : undefined;
  const merchant = id ? merchants.get(id) : undefined;
  if (merchant) return merchant;
  const example = merchants.list()[0];
  return refuse.unauthorized(
    'unknown_merchant',
    `Merchant ${JSON.stringify(id ?? '')} is not known to this sandbox. Use a merchant id from its fixtures file${example ? ` (e.g. ${example.id}, ${example.name})` : ''}, or start the sandbox with --fixtures <file> listing yours.`,
    { field: 'merchant', message: 'not a known merchant' },
  );
}

/** For tests and the `sign` helper: the header value a merchant would send. */
export function signatureFor(merchant: Merchant, endpoint: SignedEndpoint, values: Readonly<Record<string, unknown>>): string {
  return sign(merchant.secret, stringToSign(endpoint, values));
}
