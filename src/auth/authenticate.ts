import { errors } from '../errors.js';
import type { Merchant, MerchantDirectory } from '../merchants/fixtures.js';
import { SIGNATURE_ALGORITHM, safeEqual, sign, stringToSign, verifySignature, type SignedEndpoint } from './signature.js';

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
}

function accepted(mode: AuthMode): string {
  if (mode === 'token') return "the merchant's token";
  if (mode === 'signature') return `a signature (${SIGNATURE_ALGORITHM} keyed with the merchant's secret)`;
  return `the merchant's token or a signature (${SIGNATURE_ALGORITHM} keyed with the merchant's secret)`;
}

/**
 * Checks the auth header of a provider request and returns the merchant, or throws a
 * 401 that says why. Never reveals a secret or token.
 */
export function authenticate(merchants: MerchantDirectory, request: AuthRequest): Merchant | undefined {
  const { mode, endpoint } = request;
  const headerName = AUTH_HEADER[endpoint];
  const otherName = headerName === 'X-Auth' ? 'X-Token' : 'X-Auth';
  const value = request.header(headerName);
  const merchantId = typeof request.merchantId === 'string' ? request.merchantId : undefined;
  const merchant = merchantId ? merchants.get(merchantId) : undefined;

  if (mode === 'off') return merchant;

  if (value === undefined || value.trim() === '') {
    if (request.header(otherName) !== undefined) {
      throw errors.unauthorized(
        'wrong_auth_header',
        `${ENDPOINT_LABEL[endpoint]} reads the ${headerName} header, but the request sent ${otherName}. Send the same value in ${headerName}: the create endpoints use X-Auth, get uses X-Token.`,
        { field: headerName, message: `missing; ${otherName} was sent instead` },
      );
    }
    throw errors.unauthorized(
      'missing_auth_header',
      `The ${headerName} header is missing. Send ${accepted(mode)} in it, e.g. "${headerName}: sandbox-token-demo" for the bundled demo merchant.`,
      { field: headerName, message: 'missing' },
    );
  }

  if (!merchant) {
    throw errors.unauthorized(
      'unknown_merchant',
      merchantId === undefined
        ? `The request names no merchant, so it cannot be authenticated. Send your merchant UUID in ${endpoint === 'get' ? 'the path: /api/v1/trades/<merchant>/<trade id>' : 'the body field "merchant"'}.`
        : `Merchant ${JSON.stringify(merchantId)} is not known to this sandbox. Use a merchant id from the fixtures file (the README prints the bundled demo merchant), or start the sandbox with --fixtures <file> listing yours.`,
      { field: 'merchant', message: merchantId === undefined ? 'missing' : 'not a known merchant' },
    );
  }

  if ((mode === 'token' || mode === 'either') && safeEqual(value, merchant.token)) return merchant;

  const message = stringToSign(endpoint, request.values);
  if ((mode === 'signature' || mode === 'either') && /^[0-9a-fA-F]{64}$/.test(value.trim()) && verifySignature(merchant.secret, message, value)) {
    return merchant;
  }

  if (mode === 'token') {
    throw errors.unauthorized(
      'invalid_token',
      `${headerName} is not the token of merchant ${merchant.id}. This sandbox runs with --auth token: send the merchant's static token from the fixtures file.`,
      { field: headerName, message: "not the merchant's token" },
    );
  }
  const preview = value.length > 80 ? `${value.slice(0, 77)}...` : value;
  throw errors.unauthorized(
    'signature_mismatch',
    `${headerName} is ${mode === 'either' ? "neither the merchant's token nor" : 'not'} a valid signature. The sandbox expects lowercase or uppercase hex ${SIGNATURE_ALGORITHM.split(',')[0]} of the string to sign ${JSON.stringify(message)}, keyed with merchant ${merchant.id}'s secret. Compare your string to sign with this one: field order, empty slots for absent fields, and the "::" separator.`,
    { field: headerName, message: mode === 'either' ? "neither the merchant's token nor a valid signature" : 'not a valid signature' },
    { signature: { header: headerName, algorithm: SIGNATURE_ALGORITHM, string_to_sign: message, received: preview } },
  );
}

/** For tests and the `sign` helper: the header value a merchant would send. */
export function signatureFor(merchant: Merchant, endpoint: SignedEndpoint, values: Readonly<Record<string, unknown>>): string {
  return sign(merchant.secret, stringToSign(endpoint, values));
}
