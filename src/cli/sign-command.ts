import { resolve } from 'node:path';
import { AUTH_HEADER } from '../auth/authenticate.js';
import { SIGNATURE_FIELDS, type SignedEndpoint } from '../auth/signature.js';
import { signatureSlots } from '../auth/string-to-sign.js';
import { AdminClient, DEFAULT_SANDBOX_URL } from '../admin-client/admin-client.js';
import { type Fixtures, loadFixtures } from '../merchants/fixtures.js';
import { joinSlots } from '../profile/join-slots.js';
import { DEFAULT_PROFILE, loadProfile } from '../profile/load-profile.js';
import type { Profile } from '../profile/profile-schema.js';
import { describeSigning, signRequest } from '../profile/sign-request.js';
import { workspaceUrl } from '../workspaces/workspace-url.js';

export interface SignOptions {
  secret?: string;
  endpoint?: string;
  /** A JSON object (the request body) whose fields fill the slots; key=value pairs win over it. */
  body?: string;
  /** Fixtures to look the secret up in when --secret is absent (default: the bundled ones). */
  fixtures?: string;
  /** Sign with the secret of a merchant of this workspace of a running sandbox (--url), which signs without showing it. */
  workspace?: string;
  url?: string;
  adminToken?: string;
  json?: boolean;
  /** --profile: a built-in's name or a profile file's path; wins over the workspace's profile. */
  profile?: string;
  /** DEPOSIT_SANDBOX_PROFILE: the profile when neither --profile nor --workspace says which (default `sandbox`). */
  envProfile?: string;
  /** --batch: sign every request of standard input, one JSON object per line (sign-batch.ts). */
  batch?: boolean;
}

const ROUTES: Record<SignedEndpoint, string> = {
  create: 'POST /api/v1/trades/deposit/create',
  build: 'POST /api/v1/trades/deposit/build',
  get: 'GET /api/v1/trades/:merchant/:uuid',
};

/** What `deposit-sandbox sign` computes. */
export interface SignResult {
  endpoint: SignedEndpoint;
  fields: Array<{ name: string; value: string }>;
  /** What the profile signs, the secret (when it is a slot) shown as `<secret>`. */
  string_to_sign: string;
  signature: string;
  /** The header the signature travels in. */
  header: string;
  /** Where the secret came from: "--secret" or the fixtures file and merchant. */
  secret_from: string;
  /** The provider profile signed under. */
  profile: string;
  /** The algorithm and encoding: `HMAC-SHA256, hex`. */
  algorithm: string;
  /** Where the merchant's token goes when the signature travels in a header of its own (X-Auth or X-Token); null when the signature takes the token's place. */
  token_header: string | null;
}

/** A request's fields as [name, value]: the `name=value` arguments of `sign`, or the "fields" of a `sign --batch` line. */
export type FieldEntries = ReadonlyArray<readonly [string, string]>;

/**
 * How a message of the signing code tells where a value is given: `sign`'s flags and name=value
 * arguments (FLAG_WORDS), or the keys of a `sign --batch` line.
 */
export interface SignWords {
  /** The sentence's start when no secret was given and none is in the fixtures. */
  secretRequired: string;
  /** How to give the merchant's secret. */
  giveSecret: string;
  /** How to give the merchant's id, so its secret is taken from the fixtures. */
  giveMerchant: string;
  /** How to sign a get request instead. */
  giveGet: string;
}

export const FLAG_WORDS: SignWords = {
  secretRequired: '--secret is required',
  giveSecret: "Pass the merchant's secret with --secret <secret>",
  giveMerchant: 'pass merchant=<id>',
  giveGet: 'pass --endpoint get',
};

/** `name=value` arguments as [name, value]. Throws for one without a name and "=". */
function entriesOf(pairs: readonly string[]): FieldEntries {
  return pairs.map((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`${JSON.stringify(pair)} is not key=value. Pass each field as name=value, e.g. amount_cents=31250 order=order-1001.`);
    return [pair.slice(0, at), pair.slice(at + 1)] as const;
  });
}

/** Reads the fields and --body into the values of the endpoint's signature slots. */
function collect(entries: FieldEntries, endpoint: SignedEndpoint, body: string | undefined, words: SignWords): Record<string, string> {
  const allowed: readonly string[] = [...SIGNATURE_FIELDS[endpoint], ...(endpoint === 'get' ? [] : ['customer'])];
  const values: Record<string, string> = {};
  if (body !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch (error) {
      throw new Error(`--body is not valid JSON (${(error as Error).message}). Pass the request body in single quotes, e.g. --body '{"merchant":"...","amount_cents":31250}'.`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('--body must be a JSON object: the request body you send.');
    // A body has fields the signature does not cover (none for create today, but be lenient): only the slots count.
    for (const [name, value] of Object.entries(parsed)) {
      if (allowed.includes(name) && value !== undefined && value !== null) values[name] = typeof value === 'string' ? value : JSON.stringify(value);
    }
  }
  for (const [name, value] of entries) {
    if (!allowed.includes(name)) {
      throw new Error(
        `${JSON.stringify(name)} is not part of the ${endpoint} signature. Its fields, in order: ${SIGNATURE_FIELDS[endpoint].join(', ')}${endpoint === 'get' ? '' : ' (customer fills the cusotmer slot)'}.${endpoint === 'create' && name === 'uuid' ? ` For a get request ${words.giveGet}.` : ''}`,
      );
    }
    values[name] = value;
  }
  if (values['customer'] !== undefined && values['cusotmer'] !== undefined && values['customer'] !== values['cusotmer']) {
    throw new Error(
      `customer and cusotmer are two spellings of one field and were given different values (${JSON.stringify(values['customer'])} and ${JSON.stringify(values['cusotmer'])}); the sandbox refuses such a body with 422. Give one of them.`,
    );
  }
  return values;
}

/** The fixtures file --fixtures names (undefined: the bundled one). */
export const fixturesFile = (options: SignOptions): string | undefined => (options.fixtures ? resolve(options.fixtures) : undefined);

/** The secret: --secret, else the fixtures' secret of the merchant in the values. */
function findSecret(options: SignOptions, merchant: string | undefined, fixtures: () => Fixtures, words: SignWords): { secret: string; from: string } {
  if (options.secret !== undefined && options.secret !== '') return { secret: options.secret, from: '--secret' };
  const file = fixturesFile(options);
  const known = merchant ? fixtures().merchants.find((m) => m.id.toLowerCase() === merchant.toLowerCase()) : undefined;
  if (!known) {
    const where = file ?? 'the bundled fixtures';
    throw new Error(
      merchant
        ? `${words.secretRequired}: merchant ${merchant} is not in ${where}. ${words.giveSecret}.`
        : `${words.secretRequired} (the merchant's HMAC key), or ${words.giveMerchant} of a merchant in the fixtures to use its secret.`,
    );
  }
  return { secret: known.secret, from: `the secret of ${known.name} (${known.id}) in ${file ?? 'the bundled fixtures'}` };
}

/** The endpoint, its fields in signing order and what the profile signs. */
function prepare(entries: FieldEntries, options: SignOptions, profile: Profile, words: SignWords = FLAG_WORDS) {
  const endpoint = (options.endpoint ?? 'create') as SignedEndpoint;
  if (!(endpoint in SIGNATURE_FIELDS)) throw new Error(`--endpoint must be create, build or get; got ${JSON.stringify(options.endpoint)}.`);
  const values = collect(entries, endpoint, options.body, words);
  const described = describeSigning(profile, endpoint, values);
  return {
    endpoint,
    values,
    fields: SIGNATURE_FIELDS[endpoint].map((name) => ({ name, value: name === 'cusotmer' ? (values['cusotmer'] ?? values['customer'] ?? '') : (values[name] ?? '') })),
    string_to_sign: described.string_to_sign,
    header: described.header,
    profile: profile.name,
    algorithm: described.algorithm,
    token_header: described.header.toLowerCase() === AUTH_HEADER[endpoint].toLowerCase() ? null : AUTH_HEADER[endpoint],
  };
}

/** The name of the profile to sign with: --profile, else DEPOSIT_SANDBOX_PROFILE, else `sandbox`. */
export const localProfileName = (options: SignOptions): string => options.profile || options.envProfile || DEFAULT_PROFILE;

/** The profile localProfileName() names. Throws a ProfileError (exit 2) for one that cannot be used. */
function localProfile(options: SignOptions): Profile {
  return loadProfile(localProfileName(options));
}

/**
 * Computes the string to sign and its signature for an endpoint, from `name=value` arguments.
 * Throws an Error that says what to fix.
 */
export function signValues(pairs: readonly string[], options: SignOptions, profile: Profile = localProfile(options)): SignResult {
  return signEntries(entriesOf(pairs), options, profile, () => loadFixtures(fixturesFile(options)));
}

/**
 * As signValues, from [name, value] entries. `fixtures` reads the fixtures the secret is looked up
 * in when --secret is absent; `words` say in the messages where a value is given.
 */
export function signEntries(entries: FieldEntries, options: SignOptions, profile: Profile, fixtures: () => Fixtures, words: SignWords = FLAG_WORDS): SignResult {
  const { values, ...shown } = prepare(entries, options, profile, words);
  const { secret, from } = findSecret(options, values['merchant'], fixtures, words);
  return order({ ...shown, signature: signRequest(profile, secret, shown.endpoint, values), secret_from: from });
}

/** The admin client of workspace `options.workspace` of the running sandbox. */
const workspaceClient = (options: SignOptions & { workspace: string }) => new AdminClient({ url: workspaceUrl(options.url ?? DEFAULT_SANDBOX_URL, options.workspace), adminToken: options.adminToken });

/** The profile workspace `options.workspace` follows (GET /_sandbox/profile), unless --profile names one. */
async function workspaceProfile(client: AdminClient, options: SignOptions): Promise<Profile> {
  if (options.profile) return loadProfile(options.profile);
  return (await client.call('GET', '/profile')).profile;
}

/**
 * As signValues, but the running sandbox signs with the secret of a merchant of workspace
 * `options.workspace` (its own merchants, whose secrets were shown only once, and the fixtures'),
 * under the workspace's provider profile unless --profile names another.
 */
export async function signInWorkspace(pairs: readonly string[], options: SignOptions & { workspace: string }, client: AdminClient = workspaceClient(options), known?: Profile): Promise<SignResult> {
  const profile = known ?? (await workspaceProfile(client, options));
  const { values, ...shown } = prepare(entriesOf(pairs), options, profile);
  const merchant = values['merchant'];
  if (!merchant) throw new Error('With --workspace, pass merchant=<id>: the sandbox signs with the secret of that merchant of the workspace.');
  // The values joined without the secret: the sandbox puts a secret slot where the profile says.
  const string_to_sign = joinSlots({ ...profile.requests.signature, secret: 'key' }, signatureSlots(shown.endpoint, values), '');
  const answer = await client.call('POST', '/merchants/:id/sign', { param: { id: merchant }, json: { string_to_sign, signing: profile.requests.signature } });
  return order({
    ...shown,
    signature: answer.signature,
    secret_from: `the secret of merchant ${merchant} in workspace ${options.workspace} of ${client.url.replace(/\/w\/[^/]+$/, '')}`,
  });
}

/** The result's keys in the order --json prints them: those of earlier versions first. */
function order(result: SignResult): SignResult {
  const { endpoint, fields, string_to_sign, signature, header, secret_from, profile, algorithm, token_header } = result;
  return { endpoint, fields, string_to_sign, signature, header, secret_from, profile, algorithm, token_header };
}

/** Where the secret went, for the last line: `keyed with --secret`, or `--secret as the last slot`. */
function secretPlace(profile: Profile, from: string): string {
  const place = profile.requests.signature.secret;
  return place === 'key' ? `keyed with ${from}` : `${from} as the ${place === 'last-slot' ? 'last' : 'first'} slot`;
}

/**
 * `deposit-sandbox sign`: prints the string to sign and the signature. The profile: --profile,
 * else the workspace's with --workspace, else DEPOSIT_SANDBOX_PROFILE, else `sandbox` (whose
 * output is the same as before profiles existed).
 */
export async function signCommand(pairs: readonly string[], options: SignOptions, write: (text: string) => void = (text) => process.stdout.write(text)): Promise<void> {
  const { workspace } = options;
  let profile: Profile;
  let result: SignResult;
  if (workspace === undefined) {
    profile = localProfile(options);
    result = signValues(pairs, options, profile);
  } else {
    const client = workspaceClient({ ...options, workspace });
    profile = await workspaceProfile(client, options);
    result = options.secret ? signValues(pairs, options, profile) : await signInWorkspace(pairs, { ...options, workspace }, client, profile);
  }
  if (options.json) {
    write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const width = Math.max(...result.fields.map((f) => f.name.length));
  write(
    [
      `endpoint:       ${result.endpoint} (${ROUTES[result.endpoint]})`,
      'fields, in signing order:',
      ...result.fields.map((f) => `  ${f.name.padEnd(width)}  ${f.value === '' ? '(empty)' : f.value}`),
      `string to sign: ${result.string_to_sign}`,
      `signature:      ${result.signature}`,
      `header:         ${result.header}: ${result.signature}`,
      ...(result.token_header ? [`token:          ${result.token_header}: <the merchant's token> (the signature travels apart, in ${result.header})`] : []),
      `(${result.algorithm}, ${secretPlace(profile, result.secret_from)}${result.profile === DEFAULT_PROFILE ? '' : `; profile ${result.profile}`})`,
      '',
    ].join('\n'),
  );
}
