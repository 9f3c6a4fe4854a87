import { SIGNATURE_ALGORITHM, stringToSign, verifySignature, type SignedEndpoint } from './signature.js';

/**
 * How a provider request's signature is made and checked, as authentication needs it: the
 * sandbox's own scheme (below), or a provider profile's (src/profile/request-scheme.ts builds one).
 * Never holds a secret: every method that needs one is given it.
 */
export interface SignatureScheme {
  /** Where the signature travels: the endpoint's token header (X-Auth / X-Token), or a header of its own. */
  readonly header: string;
  /** The algorithm and encoding, as the 401's diagnostics name them: `HMAC-SHA256, hex`. */
  readonly algorithm: string;
  /** The string to sign of these values, as the 401 shows it (a secret slot as `<secret>`). */
  shown(values: Readonly<Record<string, unknown>>): string;
  /** True when `received` is the signature of these values with this secret (constant time). */
  verify(secret: string, values: Readonly<Record<string, unknown>>, received: string): boolean;
  /** True when `value` has the form of one of this scheme's signatures (to tell a signature from a token). */
  looksSigned(value: string): boolean;
  /** What a signature is, for a 401: `lowercase or uppercase hex HMAC-SHA256 of the string to sign "m::u", keyed with merchant m's secret`. */
  expects(merchant: string, shown: string): string;
  /** What a signature is, in short, for a merchant that sent its secret: `hex HMAC-SHA256 of the string to sign, keyed with the secret`. */
  readonly short: string;
  /** The text between the values, for the hint to compare strings to sign. */
  readonly separator: string;
}

const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

/** The sandbox's scheme for each endpoint (what the `sandbox` profile describes). */
export const SANDBOX_SCHEMES: Readonly<Record<SignedEndpoint, SignatureScheme>> = {
  create: endpointScheme('create', 'X-Auth'),
  build: endpointScheme('build', 'X-Auth'),
  get: endpointScheme('get', 'X-Token'),
};

/** The sandbox's own scheme: hex HMAC-SHA256 of the values joined with `::`, in the token's header. */
function endpointScheme(endpoint: SignedEndpoint, header: string): SignatureScheme {
  return {
    header,
    algorithm: SIGNATURE_ALGORITHM,
    shown: (values) => stringToSign(endpoint, values),
    verify: (secret, values, received) => verifySignature(secret, stringToSign(endpoint, values), received),
    looksSigned: (value) => HEX_SHA256.test(value),
    expects: (merchant, shown) => `lowercase or uppercase hex ${SIGNATURE_ALGORITHM.split(',')[0]} of the string to sign ${JSON.stringify(shown)}, keyed with merchant ${merchant}'s secret`,
    short: 'hex HMAC-SHA256 of the string to sign, keyed with the secret',
    separator: '::',
  };
}
