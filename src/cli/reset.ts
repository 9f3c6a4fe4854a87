import type { Command } from 'commander';
import type { ResetAnswer } from '../admin/admin-answers.js';
import { withSandbox, type SandboxTarget } from '../admin-client/sandbox-target.js';
import { addAdminOptions, adminTarget } from './admin-options.js';

export interface ResetOptions {
  json?: boolean;
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/**
 * `deposit-sandbox reset`: removes every trade, callback and pending step of a running
 * sandbox (POST /_sandbox/reset). Throws an Error that says what went wrong and which sandbox was asked.
 */
export async function resetCommand(target: SandboxTarget, options: ResetOptions = {}, write: (text: string) => void = (text) => process.stdout.write(text)): Promise<ResetAnswer> {
  const { answer, url } = await withSandbox(target, async (client) => ({ answer: await client.reset(), url: client.url }));
  if (options.json) {
    write(`${JSON.stringify(answer, null, 2)}\n`);
    return answer;
  }
  const { trades, callbacks, jobs } = answer.removed;
  write(`Reset ${url}: removed ${plural(trades, 'trade')}, ${plural(callbacks, 'callback')} and ${plural(jobs, 'pending step')}. The clock was left as it is.\n`);
  return answer;
}

/** Registers `deposit-sandbox reset`. */
export function registerReset(program: Command): void {
  addAdminOptions(program.command('reset').description('remove every trade, callback and pending step of a running sandbox'))
    .option('--json', 'print the admin API answer as JSON')
    .addHelpText('after', '\nExamples:\n  $ deposit-sandbox reset\n  $ deposit-sandbox reset --url http://127.0.0.1:5000 --admin-token s3cret\n')
    .action(async (options: ResetOptions, command: Command) => {
      await resetCommand(adminTarget(command), options);
    });
}
