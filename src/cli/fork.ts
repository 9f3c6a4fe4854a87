import { Option, type Command } from 'commander';
import { DEFAULT_SANDBOX_URL, SANDBOX_URL_ENV } from '../admin-client/sandbox-target.js';
import type { ForkOptions } from './fork-command.js';

const FORK_HELP = `
The new workspace starts with everything <source> holds (trades, callbacks, pending steps, clock,
merchants, scenarios, profile); from then on each changes alone. Callbacks <source> had pending
are held in the copy until POST /w/<name>/_sandbox/callbacks/resume, unless --callbacks kept.
<source> "default" is the unprefixed workspace. docs/sessions.md has the details.

Examples:
  $ deposit-sandbox fork prepared test-7
  $ deposit-sandbox fork default test-7 --callbacks kept --url http://127.0.0.1:5000 --json
`;

/** Registers `deposit-sandbox fork`. */
export function registerFork(program: Command): void {
  program
    .command('fork')
    .description('copy a workspace of a running sandbox under a new name, in one step (POST /w/<source>/_sandbox/fork)')
    .argument('<source>', 'the workspace to copy ("default" for the unprefixed one)')
    .argument('<name>', 'the new workspace')
    .addOption(new Option('--callbacks <mode>', "the source's pending callbacks in the copy: paused (held until resumed) or kept").choices(['paused', 'kept']).default('paused'))
    .addOption(new Option('--url <url>', `the sandbox address (default ${DEFAULT_SANDBOX_URL})`).env(SANDBOX_URL_ENV))
    .addOption(new Option('--admin-token <token>', "the sandbox's --admin-token, if it has one").env('DEPOSIT_SANDBOX_ADMIN_TOKEN'))
    .option('--json', 'print the admin API answer as JSON')
    .addHelpText('after', FORK_HELP)
    .action(async (source: string, name: string, options: ForkOptions, command: Command) => {
      const { forkCommand } = await import('./fork-command.js');
      const given = command.getOptionValueSource('url');
      await forkCommand(source, name, options, given === 'env' ? 'env' : given === 'cli' ? 'flag' : 'default');
    });
}
