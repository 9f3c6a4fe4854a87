import { AUTH_HEADER } from '../auth/authenticate.js';
import type { SignedEndpoint } from '../auth/string-to-sign.js';
import { BUILTIN_PROFILE_NAMES } from '../profile/builtin-profile-names.js';
import { loadProfile } from '../profile/load-profile.js';
import type { Profile } from '../profile/profile-schema.js';
import { signRequest } from '../profile/sign-request.js';
import { signingLabel, type RequestSigning } from '../profile/sign-slots.js';
import type { Credentials } from './drift-types.js';

/** What spoils a request's credentials on purpose: another token, or a signature made with another secret. */
export interface Spoil {
  token?: string;
  secret?: string;
}

/** How a probe authenticates: a profile's request signing, or the merchant's token alone. */
export interface RequestSigner {
  /** The built-in profile that signs so (the first of those that do), the profile's own name, or `token`. */
  id: string;
  /** The signing in words, e.g. `SHA-256, hex of the values joined with "::", the secret as the last slot, in X-Auth / X-Token`. */
  label: string;
  /** The request signing it follows; undefined for the token alone. */
  signing?: RequestSigning;
  /**
   * The auth headers of a request with these values: the signature in its header, the token
   * where it travels. `spoil.token` replaces the token (or the signature, when it travels in
   * the token header); `spoil.secret` signs with another secret.
   */
  headers(endpoint: SignedEndpoint, values: Readonly<Record<string, unknown>>, credentials: Credentials, spoil?: Spoil): Record<string, string>;
}

const key = (signing: RequestSigning) => JSON.stringify([signing.algorithm, signing.separator, signing.secret, signing.encoding, signing.header ?? null]);

/**
 * The signing in words, as the report and --dry-run name it.
 *
 * @example
 * describeRequestSigning(loadProfile('md5-colon').requests.signature) // 'MD5, hex of the values joined with ":", the secret as the last slot, in X-Auth / X-Token'
 */
function describeRequestSigning(signing: RequestSigning): string {
  const secret = signing.secret === 'key' ? 'keyed with the secret' : `the secret as the ${signing.secret === 'last-slot' ? 'last' : 'first'} slot`;
  const where = signing.header === undefined ? 'in X-Auth / X-Token' : `in ${signing.header}, the token in X-Auth / X-Token`;
  return `${signingLabel(signing)} of the values joined with ${JSON.stringify(signing.separator)}, ${secret}, ${where}`;
}

function profileSignerAs(id: string, profile: Profile): RequestSigner {
  const signing = profile.requests.signature;
  return {
    id,
    label: describeRequestSigning(signing),
    signing,
    headers: (endpoint, values, credentials, spoil = {}) => {
      const signature = signRequest(profile, spoil.secret ?? credentials.secret, endpoint, values);
      // The signature travels in the token header: a spoilt token takes its place.
      if (signing.header === undefined) return { [AUTH_HEADER[endpoint]]: spoil.token ?? signature };
      return { [AUTH_HEADER[endpoint]]: spoil.token ?? credentials.token, [signing.header]: signature };
    },
  };
}

let builtins: RequestSigner[] | undefined;

/** One signer for each distinct request signing of the built-in profiles, named by the first built-in that signs so. */
export function builtinSigners(): RequestSigner[] {
  if (builtins) return builtins;
  const seen = new Set<string>();
  builtins = [];
  for (const name of BUILTIN_PROFILE_NAMES) {
    const profile = loadProfile(name);
    const signing = key(profile.requests.signature);
    if (seen.has(signing)) continue;
    seen.add(signing);
    builtins.push(profileSignerAs(name, profile));
  }
  return builtins;
}

/**
 * The signer of a profile: named after the built-in that signs the same way, else after the profile.
 *
 * @example
 * profileSigner(loadProfile('strict')).id // 'sandbox'
 */
export function profileSigner(profile: Profile): RequestSigner {
  const same = builtinSigners().find((signer) => signer.signing && key(signer.signing) === key(profile.requests.signature));
  return profileSignerAs(same?.id ?? profile.name, profile);
}

/** The merchant's token alone, in the endpoint's token header; a spoilt secret signs as the sandbox does, in that header. */
export function tokenSigner(): RequestSigner {
  const sandbox = builtinSigners()[0];
  return {
    id: 'token',
    label: "the merchant's token alone in X-Auth / X-Token, no signature",
    headers: (endpoint, values, credentials, spoil = {}) => {
      if (spoil.secret !== undefined && sandbox) return sandbox.headers(endpoint, values, credentials, spoil);
      return { [AUTH_HEADER[endpoint]]: spoil.token ?? credentials.token };
    },
  };
}

/**
 * The other ways to authenticate, in the order they are tried when the target refuses the
 * profile's: the built-ins' signings that travel in the token header (they send no token, so an
 * answer 201 proves the signature), then those in a header of their own, then the token alone.
 */
export function otherSigners(used: RequestSigner): RequestSigner[] {
  const others = builtinSigners().filter((signer) => !(signer.signing && used.signing && key(signer.signing) === key(used.signing)));
  const inTokenHeader = others.filter((signer) => signer.signing?.header === undefined);
  const apart = others.filter((signer) => signer.signing?.header !== undefined);
  return [...inTokenHeader, ...apart, ...(used.id === 'token' ? [] : [tokenSigner()])];
}
