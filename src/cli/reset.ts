import { Option, type Command } from 'commander';
import { AdminClient, DEFAULT_SANDBOX_URL } from '../admin-client/admin-client.js';
import { workspaceUrl } from '../workspaces/workspace-url.js';

export interface ResetOptions {
  /** The sandbox's base URL (default http://127.0.0.1:4242). */
  url?: string;
  adminToken?: string;
  /** A workspace (/w/<name>) of that sandbox; default: the unprefixed one. */
  workspace?: string;
  json?: boolean;
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/**
 * `deposit-sandbox reset`: removes every trade, callback and pending step of a running
 * sandbox (POST /_sandbox/reset). Throws an Error that says what went wrong.
 */
export async function resetCommand(options: ResetOptions = {}, write: (text: string) => void = (text) => process.stdout.write(text)): Promise<void> {
  const client = new AdminClient({ url: workspaceUrl(options.url ?? DEFAULT_SANDBOX_URL, options.workspace), adminToken: options.adminToken });
  const answer = await client.reset();
  if (options.json) {
    write(`${JSON.stringify(answer, null, 2)}\n`);
    return;
  }
  const { trades, callbacks, jobs } = answer.removed;
  write(`Reset ${client.url}: removed ${plural(trades, 'trade')}, ${plural(callbacks, 'callback')} and ${plural(jobs, 'pending step')}. The clock was left as it is.\n`);
}

/** Registers `deposit-sandbox reset`. */
export function registerReset(program: Command, defaultUrl: string): void {
  program
    .command('reset')
    .description('remove every trade, callback and pending step of a running sandbox')
    .addOption(new Option('--url <url>', `the sandbox address (default ${defaultUrl})`).env('DEPOSIT_SANDBOX_URL'))
    .addOption(new Option('--admin-token <token>', "the sandbox's --admin-token, if it has one").env('DEPOSIT_SANDBOX_ADMIN_TOKEN'))
    .addOption(new Option('--workspace <name>', 'reset only this workspace (/w/<name>); default: the unprefixed one').env('DEPOSIT_SANDBOX_WORKSPACE'))
    .option('--json', 'print the admin API answer as JSON')
    .addHelpText('after', '\nExamples:\n  $ deposit-sandbox reset\n  $ deposit-sandbox reset --workspace worker-3\n  $ deposit-sandbox reset --url http://127.0.0.1:5000 --admin-token s3cret\n')
    .action((options: ResetOptions) => resetCommand(options));
}
