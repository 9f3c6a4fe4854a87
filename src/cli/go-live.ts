import type { Command } from 'commander';
import { addAdminOptions, adminTarget } from './admin-options.js';
import { goLiveCommand, type GoLiveOptions } from './go-live-command.js';

const HELP = `
Reads the integration coverage of a running sandbox and prints one line per provider
behaviour: met, not met or wrong, with the command or order prefix that exercises each row
not met. With --receiver, the sandbox first sends that receiver the check-callback cases and
fuzzes it (with --probe, reading your balance probe after each schedule). docs/go-live.md.

Exits 0 when every row is met, 1 when one is not met or wrong, 2 when it could not ask.

Examples:
  $ deposit-sandbox go-live
  $ deposit-sandbox go-live --url http://127.0.0.1:4242 --receiver http://127.0.0.1:3000/callback --probe http://127.0.0.1:3000/probe
`;

/** Registers `deposit-sandbox go-live`. */
export function registerGoLive(program: Command): void {
  addAdminOptions(program.command('go-live').description('is the integration ready? one checklist'))
    .option('--merchant <id>', 'the merchant (default: the first with coverage)')
    .option('--receiver <url>', 'your callback_url: checked and fuzzed by the sandbox')
    .option('--probe <url>', 'your balance probe, read by the fuzzer (with --receiver)')
    .option('--seed <n>', 'fuzzer seed (default: a random one, printed)')
    .option('--runs <n>', 'schedules the fuzzer tries (default 50)')
    .option('--json', 'print the checklist as JSON')
    .addHelpText('after', HELP)
    .action(async (options: GoLiveOptions, command: Command) => {
      try {
        const checklist = await goLiveCommand(adminTarget(command), options);
        if (!checklist.ready) process.exitCode = 1;
      } catch (error) {
        process.stderr.write(`deposit-sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exitCode = 2;
      }
    });
}
