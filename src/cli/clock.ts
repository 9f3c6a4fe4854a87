import type { Command } from 'commander';
import type { AdvanceAnswer, ClockAnswer } from '../admin/admin-answers.js';
import { withSandbox, type SandboxTarget } from '../admin-client/sandbox-target.js';
import { DURATION_HINT, DURATION_UNITS_HINT, formatDuration, hasUnknownUnit, parseDuration } from '../clock/duration.js';
import { addAdminOptions, adminTarget } from './admin-options.js';

export interface ClockOptions {
  json?: boolean;
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** "next due 2026-11-25T00:05:00.000Z (in 5m)", or that nothing waits. */
function nextDue(clock: ClockAnswer): string {
  if (clock.next_due === null) return 'nothing pending';
  const inMs = Date.parse(clock.next_due) - Date.parse(clock.now);
  return `${plural(clock.pending, 'pending step')}, the next due ${clock.next_due}${inMs > 0 ? ` (in ${formatDuration(inMs)})` : ' (now)'}`;
}

/**
 * `deposit-sandbox clock`: the sandbox clock of a running sandbox (GET /_sandbox/clock): its
 * mode, its time and what is pending. Throws an Error that names the sandbox it asked.
 */
export async function clockShowCommand(target: SandboxTarget, options: ClockOptions = {}, write: (text: string) => void = (text) => process.stdout.write(text)): Promise<ClockAnswer> {
  const { clock, url } = await withSandbox(target, async (client) => ({ clock: await client.clock(), url: client.url }));
  if (options.json) {
    write(`${JSON.stringify(clock, null, 2)}\n`);
    return clock;
  }
  write(`The clock of ${url} is ${clock.mode}: now ${clock.now}; ${nextDue(clock)}.\n`);
  return clock;
}

/**
 * `deposit-sandbox clock advance <duration>`: moves the sandbox clock forward and runs every
 * step that fell due, in order (POST /_sandbox/clock/advance), as the dashboard's clock panel does.
 */
export async function clockAdvanceCommand(target: SandboxTarget, by: string, options: ClockOptions = {}, write: (text: string) => void = (text) => process.stdout.write(text)): Promise<AdvanceAnswer> {
  const ms = parseDuration(by);
  if (ms === undefined || ms <= 0) {
    const units = hasUnknownUnit(by) ? ` (${DURATION_UNITS_HINT})` : '';
    throw new Error(`The duration must be ${DURATION_HINT}, longer than 0; got ${JSON.stringify(by)}${units}. For example: deposit-sandbox clock advance 10m`);
  }
  const { answer, url } = await withSandbox(target, async (client) => ({ answer: await client.advanceClock(by), url: client.url }));
  if (options.json) {
    write(`${JSON.stringify(answer, null, 2)}\n`);
    return answer;
  }
  write(`Advanced the clock of ${url} by ${formatDuration(ms)}: now ${answer.now}; ran ${plural(answer.ran, 'step')} that fell due.\n`);
  return answer;
}

/** Registers `deposit-sandbox clock` (show) and `deposit-sandbox clock advance <duration>`. */
export function registerClock(program: Command): void {
  const clock = program.command('clock').description("show a running sandbox's clock, or move it forward (clock advance <duration>)");
  addAdminOptions(clock.command('show', { isDefault: true }).description('show the mode, the time and the pending steps (the default)'))
    .option('--json', 'print the admin API answer as JSON')
    .addHelpText('after', '\nExamples:\n  $ deposit-sandbox clock\n  $ deposit-sandbox clock --workspace ci-1 --json\n')
    .action(async (options: ClockOptions, command: Command) => {
      await clockShowCommand(adminTarget(command), options);
    });
  addAdminOptions(
    clock
      .command('advance')
      .description('move the sandbox clock forward and run every step that fell due (expiries, delays, callback retries)')
      .argument('<duration>', 'how far: 10m, 30s, 2h, 1d (or 10м, 10 мин, 2 ч, 1 д), or milliseconds'),
  )
    .option('--json', 'print the admin API answer as JSON')
    .addHelpText('after', '\nExamples:\n  $ deposit-sandbox clock advance 10m\n  $ deposit-sandbox clock advance 16m --url http://127.0.0.1:5000 --workspace ci-1\n')
    .action(async (by: string, options: ClockOptions, command: Command) => {
      await clockAdvanceCommand(adminTarget(command), by, options);
    });
}
