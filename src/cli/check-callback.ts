import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { checkCallbackReceiver } from '../check-callback/check-callback-receiver.js';
import type { CheckReport } from '../check-callback/check-report.js';
import { formatCase, formatCheckHeader, formatCheckSummary } from '../check-callback/format-check.js';
import { DURATION_HINT, parseDuration } from '../clock/duration.js';
import { loadFixtures } from '../merchants/fixtures.js';
import { isHttpUrl } from '../trades/requests.js';

export interface CheckCallbackCommandOptions {
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
export async function checkCallbackCommand(
  url: string,
  options: CheckCallbackCommandOptions = {},
  write: (text: string) => void = (text) => process.stdout.write(text),
): Promise<CheckReport> {
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
    throw new Error(`Merchant ${id} is not in ${where} (it lists ${merchants.map((m) => m.id).join(', ')}). Pass its secret with --secret <secret>, or a fixtures file that lists it with --fixtures <file>.`);
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
  write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatCheckSummary(report));
  return report;
}

const CHECK_HELP = `
Sends your receiver, one after another: a valid callback (a trade "confirmed"), the same
one again, "created" for that trade after it, a callback with a wrong X-Signature and one
without X-Signature. A correct receiver answers 2xx to the first three and 4xx (401) to the
last two. Exits 1 when anything is flagged. No sandbox needs to be running.

Examples:
  $ deposit-sandbox check-callback http://127.0.0.1:3000/deposit-callback
  $ deposit-sandbox check-callback http://127.0.0.1:3000/cb --merchant 0b8e4c3d-7a21-4f6e-8d59-3c1a2b9e6f70
  $ deposit-sandbox check-callback https://shop.test/cb --merchant <id> --secret <secret> --json
`;

/** Registers `deposit-sandbox check-callback`. */
export function registerCheckCallback(program: Command): void {
  program
    .command('check-callback')
    .description('check your callback receiver: duplicates, an older state, bad and missing signatures')
    .argument('<url>', 'your callback_url')
    .option('--merchant <id>', 'the merchant whose callbacks to imitate (default: the first in the fixtures)')
    .option('--secret <secret>', "the merchant's secret (default: its secret in the fixtures)")
    .addOption(new Option('--fixtures <file>', 'merchants fixtures JSON (default: the bundled one)').env('DEPOSIT_SANDBOX_FIXTURES'))
    .option('--order <order>', 'the order in the valid callbacks (default: a made-up check-... order)')
    .option('--timeout <duration>', 'how long the receiver has to answer each callback (default 10s)')
    .option('--public-url <url>', 'base of payment_data.url in the bodies (default http://127.0.0.1:4242)')
    .option('--json', 'print the report as JSON')
    .addHelpText('after', CHECK_HELP)
    .action(async (url: string, options: CheckCallbackCommandOptions) => {
      const report = await checkCallbackCommand(url, options);
      if (!report.passed) process.exitCode = 1;
    });
}
