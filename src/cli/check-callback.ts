import { Option, type Command } from 'commander';
import type { CheckCallbackCommandOptions } from './check-callback-command.js';

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

With --profile <name|file>: sends what the sandbox sends under that provider profile (its
signature headers, its X-Sandbox-* helpers or none) and judges each answer by its
acknowledgement rule (e.g. md5-colon: only a 2xx with the body OK acknowledges).

Exits 1 when anything is flagged. No sandbox needs to be running.

Examples:
  $ deposit-sandbox check-callback http://127.0.0.1:3000/deposit-callback
  $ deposit-sandbox check-callback http://127.0.0.1:3000/cb --merchant 0b8e4c3d-7a21-4f6e-8d59-3c1a2b9e6f70
  $ deposit-sandbox check-callback https://shop.test/cb --merchant <id> --secret <secret> --json
  $ deposit-sandbox check-callback http://127.0.0.1:3000/callback --probe http://127.0.0.1:3000/probe --seed 42 --runs 1000
  $ deposit-sandbox check-callback http://127.0.0.1:3000/callback --probe http://127.0.0.1:3000/probe --junit check-callback.xml
  $ deposit-sandbox check-callback http://127.0.0.1:3000/callback --profile ./my-provider.yaml
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
    .addOption(
      new Option('--profile <profile>', 'the provider profile whose callbacks to send: a built-in (sandbox, strict, md5-colon, ...) or a YAML/JSON file (default sandbox)').env(
        'DEPOSIT_SANDBOX_PROFILE',
      ),
    )
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
      // Loaded when the command runs: the checks and the fuzzer (fast-check) are not compiled by every other command's start.
      const { checkCallbackCommand } = await import('./check-callback-command.js');
      const report = await checkCallbackCommand(url, options);
      if (!report.passed) process.exitCode = 1;
    });
}
