import type { Command } from 'commander';
import type { CallbackEvent } from '../store/callback-records.js';
import { withSandbox, type SandboxTarget } from '../admin-client/sandbox-target.js';
import { addAdminOptions, adminTarget } from './admin-options.js';

export interface ReplayOptions {
  json?: boolean;
}

/**
 * `deposit-sandbox replay <callback id>`: sends a callback again, now, as a new event with the
 * same body (POST /_sandbox/callbacks/:id/replay), as the dashboard's Replay button does.
 */
export async function replayCommand(target: SandboxTarget, id: string, options: ReplayOptions = {}, write: (text: string) => void = (text) => process.stdout.write(text)): Promise<CallbackEvent> {
  const { event, url } = await withSandbox(target, async (client) => ({ event: await client.replay(id), url: client.url }));
  if (options.json) {
    write(`${JSON.stringify({ callback: event }, null, 2)}\n`);
    return event;
  }
  write(
    `Replayed callback ${id} of ${url} as ${event.id} (state ${event.state}, trade ${event.trade}): sent to ${event.url}, now ${event.status}.\n` +
      `  Follow it: GET ${url}/_sandbox/callbacks/${event.id}\n`,
  );
  return event;
}

/** Registers `deposit-sandbox replay`. */
export function registerReplay(program: Command): void {
  addAdminOptions(
    program
      .command('replay')
      .description('send a callback again, now, as a new event with the same body (as the dashboard does)')
      .argument('<callback-id>', 'the callback event id (X-Sandbox-Event-Id; GET /_sandbox/callbacks lists them)'),
  )
    .option('--json', 'print the admin API answer as JSON')
    .addHelpText('after', '\nExamples:\n  $ deposit-sandbox replay 5b7e2c1a-...\n  $ deposit-sandbox replay <callback id> --url http://127.0.0.1:5000 --workspace ci-1\n')
    .action(async (id: string, options: ReplayOptions, command: Command) => {
      await replayCommand(adminTarget(command), id, options);
    });
}
