import { Option, type Command } from 'commander';
import { checkHealth } from '../health/check-health.js';
import { localSandboxUrl } from '../health/local-sandbox-url.js';

export interface HealthOptions {
  url?: string;
  timeout?: string;
}

/**
 * `deposit-sandbox health`: exit 0 when the sandbox answers GET /_sandbox/health, 1 otherwise.
 * Without --url it checks the address `serve` would listen on with the same environment,
 * so a container's HEALTHCHECK follows DEPOSIT_SANDBOX_HOST and DEPOSIT_SANDBOX_PORT.
 */
export async function healthCommand(options: HealthOptions, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const timeoutMs = Number(options.timeout ?? 2000);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new Error(`--timeout must be a whole number of milliseconds above 0, e.g. --timeout 2000; got ${JSON.stringify(options.timeout)}.`);
  const result = await checkHealth(options.url ?? localSandboxUrl(env), timeoutMs);
  if (result.ok) {
    process.stdout.write(`healthy: ${result.url}\n`);
    return;
  }
  process.stderr.write(`deposit-sandbox: ${result.url} is not healthy: ${result.reason}\n`);
  process.exitCode = 1;
}

const HELP = `
Without --url the address comes from the environment serve reads: DEPOSIT_SANDBOX_HOST
(0.0.0.0 and :: are checked through loopback) and DEPOSIT_SANDBOX_PORT or PORT, else
http://127.0.0.1:4242. The container image's HEALTHCHECK runs this command.

Examples:
  $ deposit-sandbox health
  $ deposit-sandbox health --url http://127.0.0.1:5000 --timeout 500
`;

/** Registers `deposit-sandbox health`. */
export function registerHealth(program: Command): void {
  program
    .command('health')
    .description('exit 0 when a running sandbox answers GET /_sandbox/health, 1 otherwise (for container health checks)')
    .addOption(new Option('--url <url>', 'the sandbox address (default: from DEPOSIT_SANDBOX_HOST and DEPOSIT_SANDBOX_PORT)').env('DEPOSIT_SANDBOX_URL'))
    .option('--timeout <ms>', 'how long to wait for the answer', '2000')
    .addHelpText('after', HELP)
    .action((options: HealthOptions) => healthCommand(options));
}
