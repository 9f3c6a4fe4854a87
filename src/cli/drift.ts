import { Option, type Command } from 'commander';
import type { DriftCommandOptions } from './drift-command.js';

const DRIFT_HELP = `
Sends a fixed set of about 25 requests (valid creates, builds and gets, and each documented
mistake: no auth header, the other endpoint's header, a wrong token or signature, an unknown
merchant, each required field missing, a wrong currency, a float amount, the wrong type for the
endpoint, a repeated order, an unknown trade) to the target and to a sandbox started in this
process with the same profile and credentials, and prints every difference that matters:
statuses, content types, body structure, formats, error shapes and codes, states. Values that
change on every call (ids, requisites, messages) are compared by format only.

At most 40 requests, at least 200 ms apart; orders drift-<random>, amount_cents 1; redirects are
not followed; it stops at the first answer that is not JSON. It prints the trades it created.
The token and secrets never appear in its output or files. Exits 0 with no difference, 1 with
some, 2 when it stopped. docs/drift.md says what it sends and what it cannot see.

Examples:
  $ deposit-sandbox drift --target https://test.provider.example --merchant <id> --token <token> --secret <secret>
  $ deposit-sandbox drift --target https://test.provider.example --merchant <id> --token <token> --secret <secret> --dry-run
  $ deposit-sandbox drift --target https://test.provider.example --merchant <id> --token <token> --secret <secret> \\
      --listen 127.0.0.1:4300 --callback-url https://abc.tunnel.example/callbacks --write-profile provider.yaml --junit drift.xml
`;

/** Registers `deposit-sandbox drift`. */
export function registerDrift(program: Command): void {
  program
    .command('drift')
    .description("compare the provider's test environment with the sandbox under the same profile, and list where they differ")
    .option('--target <url>', "the provider's base URL (the part before /api/v1), e.g. its test environment")
    .option('--merchant <id>', "the merchant's id at the provider")
    .addOption(new Option('--token <token>', "the merchant's token at the provider").env('DEPOSIT_SANDBOX_TOKEN'))
    .addOption(new Option('--secret <secret>', "the merchant's secret at the provider").env('DEPOSIT_SANDBOX_SECRET'))
    .addOption(
      new Option('--profile <profile>', 'the provider profile the sandbox follows and the requests are signed under: a built-in or a YAML/JSON file (default sandbox)').env('DEPOSIT_SANDBOX_PROFILE'),
    )
    .option('--json', 'print {"target", "profile", "probes", "differences": [{"probe", "aspect", "path", "sandbox", "target"}], ...}')
    .option('--junit <file>', 'also write a JUnit XML file, a test case per probe')
    .option('--dry-run', 'print every request the run would send to the target, and send nothing')
    .option('--listen <host:port>', "receive the target's callbacks here (with --callback-url)")
    .option('--callback-url <url>', "the public address of --listen that the target can reach: the trades' callback_url")
    .option('--callback-wait <duration>', 'with --listen: how long to wait for the callbacks (default 60s)')
    .option('--write-profile <file>', 'write a profile that adopts what the target showed (signing, callback scheme, error shape, headers)')
    .option('--other-merchant <id>', "a second merchant's id, for reading another merchant's trade")
    .addOption(new Option('--other-token <token>', "the second merchant's token").env('DEPOSIT_SANDBOX_OTHER_TOKEN'))
    .addOption(new Option('--other-secret <secret>', "the second merchant's secret").env('DEPOSIT_SANDBOX_OTHER_SECRET'))
    .option('--amount <kopecks>', 'amount_cents of the trades created (default 1, the smallest)')
    .option('--gap <duration>', 'the least time between two requests to the target (default 200ms; below that only for a target on this machine)')
    .addHelpText('after', DRIFT_HELP)
    .action(async (options: DriftCommandOptions) => {
      // Loaded when the command runs: the in-process sandbox it starts is the server itself.
      const { driftCommand } = await import('./drift-command.js');
      process.exitCode = await driftCommand(options);
    });
}
