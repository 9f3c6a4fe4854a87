import { Option, type Command } from 'commander';
import { AdminClient } from '../admin-client/admin-client.js';

export interface ResetOptions {
  /** The sandbox's base URL (default http://127.0.0.1:4242). */
  url?: string;
  adminToken?: string;
  json?: boolean;
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/**
 * `deposit-sandbox reset`: removes every trade, callback and pending step of a running
 * sandbox (POST /_sandbox/reset). Throws an Error that says what went wrong.
 */
export async function resetCommand(options: ResetOptions = {}, write: (text: string) => void = (text) => process.stdout.write(text)): Promise<void> {
  const client = new AdminClient({ url: options.url, adminToken: options.adminToken });
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
    .option('--json', 'print the admin API answer as JSON')
    .addHelpText('after', '\nExamples:\n  $ deposit-sandbox reset\n  $ deposit-sandbox reset --url http://127.0.0.1:5000 --admin-token s3cret\n')
    .action((options: ResetOptions) => resetCommand(options));
}
