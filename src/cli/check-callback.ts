import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { checkSuite } from '../callback-fuzzer/fuzz-junit.js';
import { checkCallbackReceiver } from '../check-callback/check-callback-receiver.js';
import { formatCase, formatCheckHeader, formatCheckSummary, formatNoProbeNote } from '../check-callback/format-check.js';
import { DURATION_HINT, parseDuration } from '../clock/duration.js';
import { loadFixtures } from '../merchants/fixtures.js';
import { junitXml } from '../junit/junit-xml.js';
import { isHttpUrl } from '../trades/requests.js';
import { fuzzCallbackCommand, wantsFuzzer, type FuzzCommandOptions } from './fuzz-callback.js';

export interface CheckCallbackCommandOptions extends FuzzCommandOptions {
  /** The merchant whose callbacks are imitated (default: the first merchant of the fixtures). */
  merchant?: string;
  /** Its secret (default: the fixtures' secret of that merchant). */
  secret?: string;
  fixtures?: string;
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
 * when anything was flagged. Throws an Error for bad arguments.
 */
export async function checkCallbackCommand(url: string, options: CheckCallbackCommandOptions = {}, write: (text: string) => void = (text) => process.stdout.write(text)): Promise<{ passed: boolean }> {
  if (!isHttpUrl(url)) throw new Error(`${JSON.stringify(url)} is not an absolute http(s) URL. Pass your callback_url, e.g. http://127.0.0.1:3000/deposit-callback.`);
  const timeoutMs = options.timeout === undefined ? 10_000 : parseDuration(options.timeout);
  if (timeoutMs === undefined || timeoutMs <= 0) throw new Error(`--timeout must be ${DURATION_HINT}, longer than 0; got ${JSON.stringify(options.timeout)}.`);

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
    const other = merchants.find((m) => m.id.toLowerCase() !== id.toLowerCase() && m.secret !== secret);
    return fuzzCallbackCommand(
      {
        url,
        merchant: { id, secret, ...(known ? { rate: known.rate, name: known.name } : {}) },
        otherSecret: other?.secret ?? `${secret}:another-merchant`,
        timeoutMs,
        ...(options.publicUrl !== undefined ? { publicUrl: options.publicUrl } : {}),
      },
      options,
      write,
    );
  }
  const secretSource = options.secret !== undefined ? 'the secret given with --secret' : `the secret of ${known?.name ?? id} in ${where}`;

  if (!options.json) write(formatCheckHeader(url, id, known?.name));
  const report = await checkCallbackReceiver({
    url,
    merchant: { id, secret, ...(known ? { rate: known.rate } : {}) },
    secretSource,
    timeoutMs,
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

const CHECK_HELP = `
Without --probe, --seed or --runs: sends your receiver, one after another, a valid callback
(a trade "confirmed"), the same one again, "created" for that trade after it, a callback with
a wrong X-Signature and one without X-Signature. A correct receiver answers 2xx to the first
three and 4xx (401) to the last two.

With --probe <url> (your balance probe: GET <url>?order=<order> answers {"state", "credited_cents"})
or --seed/--runs: fuzzes the receiver with seeded delivery schedules (duplicates, deliveries
sent at the same moment, timeouts whose retry overlaps the first attempt, replays, forged
signatures), checks credits and states through the probe after each, and prints the smallest
failing schedule with its cause and how to replay it.

Exits 1 when anything is flagged. No sandbox needs to be running.

Examples:
  $ deposit-sandbox check-callback http://127.0.0.1:3000/deposit-callback
  $ deposit-sandbox check-callback http://127.0.0.1:3000/cb --merchant 0b8e4c3d-7a21-4f6e-8d59-3c1a2b9e6f70
  $ deposit-sandbox check-callback https://shop.test/cb --merchant <id> --secret <secret> --json
  $ deposit-sandbox check-callback http://127.0.0.1:3000/callback --probe http://127.0.0.1:3000/probe --seed 42 --runs 1000
  $ deposit-sandbox check-callback http://127.0.0.1:3000/callback --probe http://127.0.0.1:3000/probe --junit check-callback.xml
`;

/** Registers `deposit-sandbox check-callback`. */
export function registerCheckCallback(program: Command): void {
  program
    .command('check-callback')
    .description('check your callback receiver: duplicates, older states, forged signatures; with --probe, double credits too')
    .argument('<url>', 'your callback_url')
    .option('--merchant <id>', 'the merchant whose callbacks to imitate (default: the first in the fixtures)')
    .option('--secret <secret>', "the merchant's secret (default: its secret in the fixtures)")
    .addOption(new Option('--fixtures <file>', 'merchants fixtures JSON (default: the bundled one)').env('DEPOSIT_SANDBOX_FIXTURES'))
    .option('--order <order>', 'the order in the valid callbacks (default: a made-up check-... order)')
    .option('--timeout <duration>', 'how long the receiver has to answer each callback (default 10s)')
    .option('--public-url <url>', 'base of payment_data.url in the bodies (default http://127.0.0.1:4242)')
    .option('--json', 'print the report as JSON')
    .option('--probe <url>', 'your balance probe (GET <url>?order=<order>); turns on the fuzzer')
    .option('--seed <n>', 'fuzzer seed: the same seed sends the same schedules (default: a random one, printed)')
    .option('--runs <n>', 'how many schedules the fuzzer tries (default 100)')
    .option('--path <path>', 'with --seed: replay the failure printed with this path')
    .option('--replay <json>', 'send exactly this schedule (the list a failure prints)')
    .option('--junit <file>', 'also write the result as JUnit XML')
    .addHelpText('after', CHECK_HELP)
    .action(async (url: string, options: CheckCallbackCommandOptions) => {
      const report = await checkCallbackCommand(url, options);
      if (!report.passed) process.exitCode = 1;
    });
}
