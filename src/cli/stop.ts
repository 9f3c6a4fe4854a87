import { Option, type Command } from 'commander';
import { DEFAULT_SANDBOX_URL, SANDBOX_URL_ENV } from '../admin-client/sandbox-target.js';
import { adminTarget } from './admin-options.js';
import type { StopOptions } from './stop-command.js';

/** Registers `deposit-sandbox stop`. */
export function registerStop(program: Command): void {
  program
    .command('stop')
    .description('stop a sandbox (the whole server, every workspace) cleanly and wait until its process is gone and its data folder is free (exit 0)')
    .addOption(new Option('--url <url>', `the sandbox address (default ${DEFAULT_SANDBOX_URL})`).env(SANDBOX_URL_ENV))
    .addOption(new Option('--admin-token <token>', "the sandbox's --admin-token, if it has one").env('DEPOSIT_SANDBOX_ADMIN_TOKEN'))
    .option('--timeout <duration>', 'give up after this long (default 30s)')
    .addOption(new Option('--ready-file <path>', 'the file `serve --ready-file` wrote: the sandbox to stop').env('DEPOSIT_SANDBOX_READY_FILE'))
    .addHelpText(
      'after',
      '\nExamples:\n  $ deposit-sandbox --port 0 --ready-file sandbox.json &   # ... your tests ...\n  $ deposit-sandbox stop --ready-file sandbox.json\n  $ deposit-sandbox stop --url http://127.0.0.1:4242   # a sandbox on this machine with a data folder\n',
    )
    .action(async (options: StopOptions, command: Command) => {
      // A stop is the server's, whatever workspace the environment names for the other commands.
      const { workspace: _workspace, ...target } = adminTarget(command);
      const fromEnv = command.getOptionValueSource('readyFile') === 'env';
      // Loaded when the command runs: the lock file's reader (zod) is not compiled by every other command's start.
      const { stopCommand } = await import('./stop-command.js');
      await stopCommand(target, fromEnv && target.source === 'flag' ? { ...options, readyFile: undefined } : options);
    });
}
