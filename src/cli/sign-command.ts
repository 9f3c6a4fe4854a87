import { resolve } from 'node:path';
import { SIGNATURE_ALGORITHM, SIGNATURE_FIELDS, sign, stringToSign, type SignedEndpoint } from '../auth/signature.js';
import { AdminClient, DEFAULT_SANDBOX_URL } from '../admin-client/admin-client.js';
import { loadFixtures } from '../merchants/fixtures.js';
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
}

const ENDPOINTS: Record<SignedEndpoint, { route: string; header: string }> = {
  create: { route: 'POST /api/v1/trades/deposit/create', header: 'X-Auth' },
  build: { route: 'POST /api/v1/trades/deposit/build', header: 'X-Auth' },
  get: { route: 'GET /api/v1/trades/:merchant/:uuid', header: 'X-Token' },
};

/** What `deposit-sandbox sign` computes. */
export interface SignResult {
  endpoint: SignedEndpoint;
  fields: Array<{ name: string; value: string }>;
  string_to_sign: string;
  signature: string;
  header: string;
  /** Where the secret came from: "--secret" or the fixtures file and merchant. */
  secret_from: string;
}

/** Reads `key=value` arguments and --body into the values of the endpoint's signature slots. */
function collect(pairs: readonly string[], endpoint: SignedEndpoint, body: string | undefined): Record<string, string> {
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
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`${JSON.stringify(pair)} is not key=value. Pass each field as name=value, e.g. amount_cents=31250 order=order-1001.`);
    const name = pair.slice(0, at);
    if (!allowed.includes(name)) {
      throw new Error(
        `${JSON.stringify(name)} is not part of the ${endpoint} signature. Its fields, in order: ${SIGNATURE_FIELDS[endpoint].join(', ')}${endpoint === 'get' ? '' : ' (customer fills the cusotmer slot)'}.${endpoint === 'create' && name === 'uuid' ? ' For a get request pass --endpoint get.' : ''}`,
      );
    }
    values[name] = pair.slice(at + 1);
  }
  if (values['customer'] !== undefined && values['cusotmer'] !== undefined && values['customer'] !== values['cusotmer']) {
    throw new Error(
      `customer and cusotmer are two spellings of one field and were given different values (${JSON.stringify(values['customer'])} and ${JSON.stringify(values['cusotmer'])}); the sandbox refuses such a body with 422. Give one of them.`,
    );
  }
  return values;
}

/** The secret: --secret, else the fixtures' secret of the merchant in the values. */
function findSecret(options: SignOptions, merchant: string | undefined): { secret: string; from: string } {
  if (options.secret !== undefined && options.secret !== '') return { secret: options.secret, from: '--secret' };
  const file = options.fixtures ? resolve(options.fixtures) : undefined;
  const known = merchant ? loadFixtures(file).merchants.find((m) => m.id.toLowerCase() === merchant.toLowerCase()) : undefined;
  if (!known) {
    const where = file ?? 'the bundled fixtures';
    throw new Error(
      merchant
        ? `--secret is required: merchant ${merchant} is not in ${where}. Pass the merchant's secret with --secret <secret>.`
        : "--secret is required (the merchant's HMAC key), or pass merchant=<id> of a merchant in the fixtures to use its secret.",
    );
  }
  return { secret: known.secret, from: `the secret of ${known.name} (${known.id}) in ${file ?? 'the bundled fixtures'}` };
}

/** The endpoint, its fields in signing order and the string to sign. */
function prepare(pairs: readonly string[], options: SignOptions) {
  const endpoint = (options.endpoint ?? 'create') as SignedEndpoint;
  if (!(endpoint in SIGNATURE_FIELDS)) throw new Error(`--endpoint must be create, build or get; got ${JSON.stringify(options.endpoint)}.`);
  const values = collect(pairs, endpoint, options.body);
  return {
    endpoint,
    values,
    fields: SIGNATURE_FIELDS[endpoint].map((name) => ({ name, value: name === 'cusotmer' ? (values['cusotmer'] ?? values['customer'] ?? '') : (values[name] ?? '') })),
    string_to_sign: stringToSign(endpoint, values),
    header: ENDPOINTS[endpoint].header,
  };
}

/** Computes the string to sign and its signature for an endpoint. Throws an Error that says what to fix. */
export function signValues(pairs: readonly string[], options: SignOptions): SignResult {
  const { endpoint, values, fields, string_to_sign, header } = prepare(pairs, options);
  const { secret, from } = findSecret(options, values['merchant']);
  return { endpoint, fields, string_to_sign, signature: sign(secret, string_to_sign), header, secret_from: from };
}

/**
 * As signValues, but the running sandbox signs with the secret of a merchant of workspace
 * `options.workspace` (its own merchants, whose secrets were shown only once, and the fixtures').
 */
export async function signInWorkspace(pairs: readonly string[], options: SignOptions & { workspace: string }): Promise<SignResult> {
  const { endpoint, values, fields, string_to_sign, header } = prepare(pairs, options);
  const merchant = values['merchant'];
  if (!merchant) throw new Error('With --workspace, pass merchant=<id>: the sandbox signs with the secret of that merchant of the workspace.');
  const client = new AdminClient({ url: workspaceUrl(options.url ?? DEFAULT_SANDBOX_URL, options.workspace), adminToken: options.adminToken });
  const answer = await client.call('POST', '/merchants/:id/sign', { param: { id: merchant }, json: { string_to_sign } });
  return {
    endpoint,
    fields,
    string_to_sign,
    signature: answer.signature,
    header,
    secret_from: `the secret of merchant ${merchant} in workspace ${options.workspace} of ${client.url.replace(/\/w\/[^/]+$/, '')}`,
  };
}

/** `deposit-sandbox sign`: prints the string to sign and the signature. */
export async function signCommand(pairs: readonly string[], options: SignOptions, write: (text: string) => void = (text) => process.stdout.write(text)): Promise<void> {
  const { workspace } = options;
  const result = workspace !== undefined && !options.secret ? await signInWorkspace(pairs, { ...options, workspace }) : signValues(pairs, options);
  if (options.json) {
    write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const width = Math.max(...result.fields.map((f) => f.name.length));
  write(
    [
      `endpoint:       ${result.endpoint} (${ENDPOINTS[result.endpoint].route})`,
      'fields, in signing order:',
      ...result.fields.map((f) => `  ${f.name.padEnd(width)}  ${f.value === '' ? '(empty)' : f.value}`),
      `string to sign: ${result.string_to_sign}`,
      `signature:      ${result.signature}`,
      `header:         ${result.header}: ${result.signature}`,
      `(${SIGNATURE_ALGORITHM}, keyed with ${result.secret_from})`,
      '',
    ].join('\n'),
  );
}
