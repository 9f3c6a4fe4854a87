import type { Command } from 'commander';
import { clientFor, withTarget, type SandboxTarget } from '../admin-client/sandbox-target.js';
import { waitHealthy } from '../admin-client/wait-healthy.js';
import { DURATION_HINT, parseDuration } from '../clock/duration.js';
import { addAdminOptions, adminTarget } from './admin-options.js';

export interface WaitOptions {
  /** How long to wait, e.g. "30s" (default). */
  timeout?: string;
}

/**
 * `deposit-sandbox wait`: resolves once the sandbox at the target answers GET /_sandbox/health;
 * throws (the CLI exits 1) with the last problem and the sandbox it asked after the timeout.
 */
export async function waitCommand(target: SandboxTarget, options: WaitOptions = {}, write: (text: string) => void = (text) => process.stdout.write(text)): Promise<void> {
  const timeoutMs = options.timeout === undefined ? 30_000 : parseDuration(options.timeout);
  if (timeoutMs === undefined || timeoutMs <= 0) throw new Error(`--timeout must be ${DURATION_HINT}, longer than 0; got ${JSON.stringify(options.timeout)}.`);
  try {
    // One slow answer must not use up the whole wait.
    await waitHealthy(clientFor(target, { timeoutMs: Math.min(timeoutMs, 5_000) }), { timeoutMs });
  } catch (error) {
    throw withTarget(error, target);
  }
  write(`The sandbox at ${target.url.replace(/\/+$/, '')}${target.workspace !== undefined ? ` (workspace ${target.workspace})` : ''} is healthy.\n`);
}

/** Registers `deposit-sandbox wait`. */
export function registerWait(program: Command): void {
  addAdminOptions(program.command('wait').description('wait until a sandbox answers its health check (exit 0), or fail after --timeout'))
    .option('--timeout <duration>', 'give up after this long (default 30s)')
    .addHelpText('after', '\nExamples:\n  $ deposit-sandbox wait --url http://127.0.0.1:4242\n  $ deposit-sandbox wait --url "$(jq -r .url sandbox.ready)" --timeout 1m\n')
    .action(async (options: WaitOptions, command: Command) => {
      await waitCommand(adminTarget(command), options);
    });
}
