import { Option, type Command } from 'commander';
import { DEFAULT_SANDBOX_URL, SANDBOX_URL_ENV } from '../admin-client/sandbox-target.js';
import type { ForkOptions } from './fork-command.js';

/** Registers `deposit-sandbox fork`. */
export function registerFork(program: Command): void {
  program
    .command('fork')
    .description('copy a workspace under a new name')
    .argument('<source>', 'the workspace to copy ("default": the unprefixed one)')
    .argument('<name>', 'the new workspace')
    .addOption(new Option('--callbacks <mode>', 'held by default').choices(['paused', 'kept']))
    .addOption(new Option('--url <url>', `the sandbox address (default ${DEFAULT_SANDBOX_URL})`).env(SANDBOX_URL_ENV))
    .addOption(new Option('--admin-token <token>', "the sandbox's --admin-token, if it has one").env('DEPOSIT_SANDBOX_ADMIN_TOKEN'))
    .option('--json', 'print the admin API answer as JSON')
    .action(async (source: string, name: string, options: ForkOptions, command: Command) => {
      const { forkCommand } = await import('./fork-command.js');
      const given = command.getOptionValueSource('url');
      await forkCommand(source, name, options, given === 'env' ? 'env' : given === 'cli' ? 'flag' : 'default');
    });
}
