import type { Command } from 'commander';
import { addAdminOptions, adminTarget } from './admin-options.js';
import type { SessionExportOptions } from './session-export-command.js';

const EXPORT_HELP = `
Example (without -o it is printed; docs/sessions.md):
  $ deposit-sandbox session export --url http://127.0.0.1:5000 --workspace ci-1 -o ci-1.har
`;

/** Registers `deposit-sandbox session` and its commands. */
export function registerSession(program: Command): void {
  const session = program.command('session').description('export a recorded session as HAR');
  addAdminOptions(session.command('export').description("write a workspace's session as HAR 1.2"))
    .option('-o, --output <file>', 'write it to this file (default: print it)')
    .addHelpText('after', EXPORT_HELP)
    .action(async (options: SessionExportOptions, command: Command) => {
      const { sessionExportCommand } = await import('./session-export-command.js');
      await sessionExportCommand(adminTarget(command), options);
    });
}
