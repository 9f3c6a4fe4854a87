import { Option, type Command } from 'commander';
import type { DriftCommandOptions } from './drift-command.js';

const DRIFT_HELP = `
Sends about 25 fixed requests (valid ones, each documented mistake) to the target and to a sandbox
with the same profile; lists every difference that matters. At most 40 requests, 200 ms apart, no
redirect followed, no secret shown. Exit 0: none, 1: some, 2: stopped. See docs/drift.md.

Examples:
  $ deposit-sandbox drift --target https://test.provider.example --merchant <id> --token <t> --secret <s>
  $ deposit-sandbox drift --target <url> --merchant <id> --listen 127.0.0.1:4300 --callback-url <public url> --write-profile p.yaml
`;

/** Registers `deposit-sandbox drift`. */
export function registerDrift(program: Command): void {
  program
    .command('drift')
    .description('compare the provider with the sandbox')
    .option('--target <url>', "the provider's base URL, before /api/v1")
    .option('--merchant <id>', "the merchant's id there")
    .addOption(new Option('--token <token>', "the merchant's token").env('DEPOSIT_SANDBOX_TOKEN'))
    .addOption(new Option('--secret <secret>', 'the secret').env('DEPOSIT_SANDBOX_SECRET'))
    .addOption(new Option('--profile <profile>', 'built-in or file (default sandbox)').env('DEPOSIT_SANDBOX_PROFILE'))
    .option('--json', 'print the report as JSON')
    .option('--junit <file>', 'write JUnit XML, a case per probe')
    .option('--dry-run', 'print what would be sent; send nothing')
    .option('--listen <host:port>', "receive the target's callbacks here")
    .option('--callback-url <url>', 'the address of --listen the target reaches')
    .option('--callback-wait <duration>', 'how long to wait for them (default 60s)')
    .option('--write-profile <file>', 'write a profile adopting what was found')
    .option('--other-merchant <id>', "a second merchant's id")
    .addOption(new Option('--other-token <token>', 'its token').env('DEPOSIT_SANDBOX_OTHER_TOKEN'))
    .addOption(new Option('--other-secret <secret>', 'its secret').env('DEPOSIT_SANDBOX_OTHER_SECRET'))
    .option('--amount <kopecks>', 'amount_cents to create (default 1)')
    .option('--gap <duration>', 'between requests (default 200ms)')
    .addHelpText('after', DRIFT_HELP)
    .action(async (options: DriftCommandOptions) => {
      // Loaded when the command runs: the in-process sandbox it starts is the server itself.
      const { driftCommand } = await import('./drift-command.js');
      process.exitCode = await driftCommand(options);
    });
}
