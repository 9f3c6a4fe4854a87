import { SIGNATURE_FIELDS } from '../auth/signature.js';
import { type Fixtures, loadFixtures } from '../merchants/fixtures.js';
import { loadProfile } from '../profile/load-profile.js';
import type { Profile } from '../profile/profile-schema.js';
import { type FieldEntries, fixturesFile, localProfileName, type SignOptions, type SignWords, signEntries } from './sign-command.js';

/**
 * `deposit-sandbox sign --batch`: every request of standard input, one JSON object per line
 * (`{"endpoint", "profile", "secret", "fields"}`, each optional: a key left out takes the flag's
 * value), signed in one process, each one's --json result printed on one line, in order. A line
 * that cannot be signed gets `{"line": <n>, "error": "<what to fix>"}` in its place, and the others
 * are still signed. It signs here, with --secret or the fixtures' secrets, as `sign` without
 * --workspace does.
 */

const KEYS = ['endpoint', 'profile', 'secret', 'fields'];
const EXAMPLE = '{"profile":"md5-colon","endpoint":"get","fields":{"merchant":"<id>","uuid":"<trade id>"}}';

/** The signing code's messages in the terms of a line: its keys, not the flags of `sign`. */
const LINE_WORDS: SignWords = {
  secretRequired: 'a "secret" is required',
  giveSecret: 'Give the merchant\'s secret as the line\'s "secret" (or --secret <secret> for every line)',
  giveMerchant: 'give the "merchant" field',
  giveGet: 'give "endpoint": "get"',
};

/** Where --workspace came from: the variable applies to every command, so a refusal names it. */
export interface BatchOptions extends SignOptions {
  workspaceFromEnv?: boolean;
}

/** One request of a line: its fields, the options it signs with, and where its own secret came from. */
interface LineRequest {
  fields: FieldEntries;
  options: SignOptions;
  secretFrom: string | undefined;
}

/** Line `number` as a request. Throws an Error that says what to fix, in the terms of a line. */
function lineRequest(line: string, number: number, options: SignOptions): LineRequest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (error) {
    throw new Error(`not JSON (${(error as Error).message}). Each line is one request, for example ${EXAMPLE}.`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`a request is a JSON object, for example ${EXAMPLE}.`);
  const request = parsed as Record<string, unknown>;
  const unknown = Object.keys(request).filter((key) => !KEYS.includes(key));
  if (unknown.length > 0) {
    throw new Error(`${unknown.map((key) => JSON.stringify(key)).join(', ')}: not a key of a request. Its keys: endpoint, profile, secret and fields (the request's fields as an object).`);
  }
  const text = (key: string): string | undefined => {
    const value = request[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value === '') throw new Error(`"${key}" must be a string that is not empty; leave it out to use the flag's. Got ${JSON.stringify(value)}.`);
    return value;
  };
  const endpoint = text('endpoint');
  if (endpoint !== undefined && !(endpoint in SIGNATURE_FIELDS)) throw new Error(`"endpoint" must be create, build or get; got ${JSON.stringify(endpoint)}.`);
  const fields = request['fields'] ?? {};
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) {
    throw new Error('"fields" must be an object of the request\'s fields, for example {"merchant":"<id>","order":"o-1","amount_cents":100}.');
  }
  const entries = Object.entries(fields).map(([name, value]) => {
    if (name === '') throw new Error('"fields" has a field without a name.');
    if (typeof value !== 'string' && typeof value !== 'number') throw new Error(`"fields"."${name}" must be a string or a number; got ${JSON.stringify(value)}.`);
    return [name, String(value)] as const;
  });
  const secret = text('secret');
  return {
    fields: entries,
    options: { ...options, endpoint: endpoint ?? options.endpoint, profile: text('profile') ?? options.profile, secret: secret ?? options.secret },
    secretFrom: secret === undefined ? undefined : `the "secret" of line ${number}`,
  };
}

/**
 * Signs every line of `input` (blank lines are skipped; a byte order mark is ignored) and writes
 * each one's result on one line. Returns how many could not be signed. Profiles and the fixtures
 * are read once for the whole input; `read` holds profiles already read (the flags').
 */
export function signBatch(input: string, options: SignOptions, write: (text: string) => void, read: ReadonlyMap<string, Profile> = new Map()): number {
  // A profile that cannot be used fails each line that names it, read once.
  const profiles = new Map<string, Profile | Error>(read);
  const profile = (name: string): Profile => {
    let found = profiles.get(name);
    if (found === undefined) {
      try {
        found = loadProfile(name);
      } catch (error) {
        found = error as Error;
      }
      profiles.set(name, found);
    }
    if (found instanceof Error) throw found;
    return found;
  };
  // Fixtures that cannot be read fail each line that needs them, read once too.
  let fixtures: Fixtures | Error | undefined;
  const readFixtures = (): Fixtures => {
    if (fixtures === undefined) {
      try {
        fixtures = loadFixtures(fixturesFile(options));
      } catch (error) {
        fixtures = error as Error;
      }
    }
    if (fixtures instanceof Error) throw fixtures;
    return fixtures;
  };
  let failed = 0;
  input
    .replace(/^\uFEFF/, '')
    .split('\n')
    .forEach((line, index) => {
      if (line.trim() === '') return;
      try {
        const request = lineRequest(line, index + 1, options);
        const result = signEntries(request.fields, request.options, profile(localProfileName(request.options)), readFixtures, LINE_WORDS);
        write(`${JSON.stringify(request.secretFrom === undefined ? result : { ...result, secret_from: request.secretFrom })}\n`);
      } catch (error) {
        failed++;
        write(`${JSON.stringify({ line: index + 1, error: (error as Error).message })}\n`);
      }
    });
  return failed;
}

/**
 * `sign --batch` as the CLI runs it: refuses what cannot go with it before it reads anything
 * (arguments, --workspace, --body, a terminal as input), reads the flags' profile (a profile that
 * cannot be used throws, as `sign` does), then reads `input` to its end and signs every line.
 * Returns how many lines could not be signed, after saying so on `warn`.
 */
export async function signBatchCommand(
  fields: readonly string[],
  options: BatchOptions,
  input: AsyncIterable<string | Buffer> & { isTTY?: boolean },
  write: (text: string) => void,
  warn: (text: string) => void,
): Promise<number> {
  if (fields.length > 0) throw new Error(`--batch takes each request from standard input; ${JSON.stringify(fields[0])} and the other name=value arguments belong in the "fields" of a line.`);
  if (options.workspace !== undefined) {
    const which = options.workspaceFromEnv ? `DEPOSIT_SANDBOX_WORKSPACE is set (${options.workspace})` : '--workspace was given';
    throw new Error(
      `${which}, and --batch signs here, with --secret or the fixtures' secrets, never through a workspace of a running sandbox. Run it without ${options.workspaceFromEnv ? 'the variable (env -u DEPOSIT_SANDBOX_WORKSPACE ...)' : '--workspace'}.`,
    );
  }
  if (options.body !== undefined) throw new Error('--batch takes each request from standard input: give its fields in the "fields" of a line, not with --body.');
  if (input.isTTY) throw new Error('--batch reads the requests from standard input, one JSON object per line, to its end: pipe them in (deposit-sandbox sign --batch < requests.jsonl).');
  const name = localProfileName(options);
  const flagProfile = loadProfile(name);
  // Decoded once read whole (a character may be split between two chunks), and refused when it is
  // not UTF-8: a byte read as U+FFFD would be signed over text the merchant never sends.
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new Error('--batch reads UTF-8 text, and standard input is not: save the requests as UTF-8 (iconv -f <their encoding> -t UTF-8), as the requests themselves are sent.');
  }
  const failed = signBatch(text, options, write, new Map([[name, flagProfile]]));
  if (failed > 0) warn(`deposit-sandbox sign --batch: ${failed} request${failed === 1 ? '' : 's'} could not be signed; ${failed === 1 ? 'its line says' : 'their lines say'} why.\n`);
  return failed;
}
