import type { Command } from 'commander';
import { addAdminOptions, adminTarget } from './admin-options.js';
import type { SessionExportOptions } from './session-export-command.js';
import type { SessionReplayOptions } from './session-replay-command.js';

const EXPORT_HELP = `
Example (without -o it is printed; docs/sessions.md):
  $ deposit-sandbox session export --url http://127.0.0.1:5000 --workspace ci-1 -o ci-1.har
`;

const REPLAY_HELP = `
Exit 0: every answer as recorded; 1: one differs (it is named); 2: the replay could not run.

Examples:
  $ deposit-sandbox session replay ci.har --to-receiver http://127.0.0.1:3000 --speed 10
  $ deposit-sandbox session replay ci.har --to-sandbox http://127.0.0.1:4242
`;

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Registers `deposit-sandbox session` and its commands. */
export function registerSession(program: Command): void {
  const session = program.command('session').description('export a recorded session as HAR, or replay one');
  addAdminOptions(session.command('export').description("write a workspace's session as HAR 1.2"))
    .option('-o, --output <file>', 'write it to this file (default: print it)')
    .addHelpText('after', EXPORT_HELP)
    .action(async (options: SessionExportOptions, command: Command) => {
      const { sessionExportCommand } = await import('./session-export-command.js');
      await sessionExportCommand(adminTarget(command), options);
    });
  session
    .command('replay')
    .description('replay it; report the first answer that differs')
    .argument('<file>', 'a HAR file of session export')
    .option('--to-receiver <url>', 'its callbacks, byte for byte, to your receiver')
    .option('--to-sandbox <url>', 'its requests, to a fresh workspace of this sandbox')
    .option('--speed <n>', 'receiver: the recorded gaps divided by n (default: none)')
    .option('--step', 'receiver: wait for Enter before each callback')
    .option('--secret <secret>', 'receiver: <merchant id>=<secret>, or one for all', collect)
    .option('--fixtures <file>', 'receiver: merchants whose secrets sign (default: bundled)')
    .option('--workspace <name>', 'sandbox: the fresh workspace (default: replay-...)')
    .option('--admin-token <token>', 'sandbox: its --admin-token, if it has one')
    .addHelpText('after', REPLAY_HELP)
    .action(async (file: string, options: SessionReplayOptions) => {
      const { sessionReplayCommand } = await import('./session-replay-command.js');
      try {
        const result = await sessionReplayCommand(file, options);
        if (result.difference !== undefined) process.exitCode = 1;
      } catch (error) {
        if ((error as Error).name !== 'ReplayStopped') throw error;
        process.stderr.write(`deposit-sandbox: ${(error as Error).message}\n`);
        process.exitCode = 2;
      }
    });
}
