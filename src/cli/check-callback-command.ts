import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { anotherMerchantsSecret } from '../callback-fuzzer/another-merchant.js';
import { checkSuite } from '../callback-fuzzer/fuzz-junit.js';
import { checkCallbackReceiver } from '../check-callback/check-callback-receiver.js';
import { formatCase, formatCheckHeader, formatCheckSummary, formatNoProbeNote } from '../check-callback/format-check.js';
import { DURATION_HINT, parseDuration } from '../clock/duration.js';
import { loadFixtures } from '../merchants/fixtures.js';
import { DEFAULT_PROFILE, loadProfile } from '../profile/load-profile.js';
import { junitXml } from '../junit/junit-xml.js';
import { isHttpUrl } from '../trades/requests.js';
import { fuzzCallbackCommand, wantsFuzzer, type FuzzCommandOptions } from './fuzz-callback.js';

export interface CheckCallbackCommandOptions extends FuzzCommandOptions {
  /** The merchant whose callbacks are imitated (default: the first merchant of the fixtures). */
  merchant?: string;
  /** Its secret (default: the fixtures' secret of that merchant). */
  secret?: string;
  fixtures?: string;
  /** The provider profile whose callbacks to send and whose acknowledgement rule judges the answers (default sandbox). */
  profile?: string;
  /** The order in the valid callbacks (default: a made-up one). */
  order?: string;
  /** How long the receiver has to answer each callback (default 10s). */
  timeout?: string;
  /** Base of payment_data.url in the bodies. */
  publicUrl?: string;
  json?: boolean;
}

/**
 * `deposit-sandbox check-callback <url>`: checks a callback receiver on its own (no sandbox
 * needs to run), printing each case as it finishes. Resolves with the report; the CLI exits 1
 * when anything was flagged. Throws an Error for bad arguments, a ProfileError (exit 2) for a
 * profile that cannot be used.
 */
export async function checkCallbackCommand(url: string, options: CheckCallbackCommandOptions = {}, write: (text: string) => void = (text) => process.stdout.write(text)): Promise<{ passed: boolean }> {
  if (!isHttpUrl(url)) throw new Error(`${JSON.stringify(url)} is not an absolute http(s) URL. Pass your callback_url, e.g. http://127.0.0.1:3000/deposit-callback.`);
  const timeoutMs = options.timeout === undefined ? 10_000 : parseDuration(options.timeout);
  if (timeoutMs === undefined || timeoutMs <= 0) throw new Error(`--timeout must be ${DURATION_HINT}, longer than 0; got ${JSON.stringify(options.timeout)}.`);
  const profile = loadProfile(options.profile ?? DEFAULT_PROFILE);

  const file = options.fixtures ? resolve(options.fixtures) : undefined;
  const where = file ?? 'the bundled fixtures';
  const merchants = loadFixtures(file).merchants;
  const id = options.merchant ?? merchants[0]?.id ?? '';
  const known = merchants.find((m) => m.id.toLowerCase() === id.toLowerCase());
  const secret = options.secret ?? known?.secret;
  if (secret === undefined || secret === '') {
    throw new Error(
      `Merchant ${id} is not in ${where} (it lists ${merchants.map((m) => m.id).join(', ')}). Pass its secret with --secret <secret>, or a fixtures file that lists it with --fixtures <file>.`,
    );
  }
  if (wantsFuzzer(options)) {
    return fuzzCallbackCommand(
      {
        url,
        merchant: { id, secret, ...(known ? { rate: known.rate, name: known.name } : {}) },
        otherSecret: anotherMerchantsSecret(merchants, id, secret),
        timeoutMs,
        profile,
        ...(options.publicUrl !== undefined ? { publicUrl: options.publicUrl } : {}),
      },
      options,
      write,
    );
  }
  const secretSource = options.secret !== undefined ? 'the secret given with --secret' : `the secret of ${known?.name ?? id} in ${where}`;

  if (!options.json) write(formatCheckHeader(url, id, known?.name, profile.name));
  const report = await checkCallbackReceiver({
    url,
    merchant: { id, secret, ...(known ? { rate: known.rate } : {}) },
    secretSource,
    timeoutMs,
    profile,
    ...(options.order !== undefined ? { order: options.order } : {}),
    ...(options.publicUrl !== undefined ? { publicUrl: options.publicUrl } : {}),
    onCase: (result) => {
      if (!options.json) write(formatCase(result));
    },
  });
  write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatCheckSummary(report) + formatNoProbeNote(url));
  if (options.junit !== undefined) writeFileSync(resolve(options.junit), junitXml([checkSuite(report)], 'deposit-sandbox check-callback'));
  return report;
}
