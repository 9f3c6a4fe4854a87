import { Option, type Command } from 'commander';
import { clientFor, withTarget, type SandboxTarget } from '../admin-client/sandbox-target.js';
import { waitHealthy } from '../admin-client/wait-healthy.js';
import { DURATION_HINT, parseDuration } from '../clock/duration.js';
import { addAdminOptions, adminTarget } from './admin-options.js';
import { waitForReadyFile } from './ready-file.js';

export interface WaitOptions {
  /** How long to wait, e.g. "30s" (default). */
  timeout?: string;
  /** Find the sandbox through the file `serve --ready-file` writes (a `--port 0` sandbox) instead of --url. */
  readyFile?: string | undefined;
}

/**
 * `deposit-sandbox wait`: resolves once the sandbox at the target answers GET /_sandbox/health;
 * throws (the CLI exits 1) with the last problem and the sandbox it asked after the timeout.
 * With `readyFile`, the target's URL is the one that file holds, waited for first (within the
 * same timeout): the file appears once a `serve --ready-file` sandbox listens.
 */
export async function waitCommand(given: SandboxTarget, options: WaitOptions = {}, write: (text: string) => void = (text) => process.stdout.write(text)): Promise<void> {
  const timeoutMs = options.timeout === undefined ? 30_000 : parseDuration(options.timeout);
  if (timeoutMs === undefined || timeoutMs <= 0) throw new Error(`--timeout must be ${DURATION_HINT}, longer than 0; got ${JSON.stringify(options.timeout)}.`);
  let target = given;
  const started = Date.now();
  if (options.readyFile !== undefined) {
    if (given.source === 'flag') throw new Error(`Pass --url or --ready-file, not both: --ready-file ${options.readyFile} names the sandbox's URL itself.`);
    const ready = await waitForReadyFile(options.readyFile, timeoutMs);
    target = { ...given, url: ready.url, source: 'ready-file', readyFile: options.readyFile };
  }
  const leftMs = Math.max(1, timeoutMs - (Date.now() - started));
  try {
    // One slow answer must not use up the whole wait. The deadline counts from the command's start,
    // so the message names the --timeout given, however long the ready file took.
    await waitHealthy(clientFor(target, { timeoutMs: Math.min(leftMs, 5_000) }), { timeoutMs, startedAt: started });
  } catch (error) {
    throw withTarget(error, target);
  }
  write(`The sandbox at ${target.url.replace(/\/+$/, '')}${target.workspace !== undefined ? ` (workspace ${target.workspace})` : ''} is healthy.\n`);
}

/** Registers `deposit-sandbox wait`. */
export function registerWait(program: Command): void {
  addAdminOptions(program.command('wait').description('wait until a sandbox answers its health check (exit 0), or fail after --timeout'))
    .option('--timeout <duration>', 'give up after this long (default 30s)')
    .addOption(
      new Option('--ready-file <path>', 'the file `serve --ready-file` writes: wait for it to appear, then for the sandbox at the URL it holds (a --port 0 sandbox)').env('DEPOSIT_SANDBOX_READY_FILE'),
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ deposit-sandbox wait --url http://127.0.0.1:4242\n  $ deposit-sandbox wait --ready-file sandbox.json --timeout 1m   # after: deposit-sandbox --port 0 --ready-file sandbox.json &\n',
    )
    .action(async (options: WaitOptions, command: Command) => {
      const target = adminTarget(command);
      // A --url flag wins over a DEPOSIT_SANDBOX_READY_FILE left in the environment for serve.
      const fromEnv = command.getOptionValueSource('readyFile') === 'env';
      await waitCommand(target, fromEnv && target.source === 'flag' ? { ...options, readyFile: undefined } : options);
    });
}
