import type { Command } from 'commander';
import { saysOff } from '../config/off-value.js';

/** A boolean flag set from the environment: true unless the variable says off. */
function envFlag(command: Command, key: string): boolean | undefined {
  if (command.getOptionValueSource(key) !== 'env') return undefined;
  const option = command.options.find((o) => o.attributeName() === key);
  const value = (option?.envVar ? process.env[option.envVar] : undefined) ?? '';
  return !saysOff(value);
}

/**
 * Collects the options of `serve` into the shape createSandbox() takes (only those given),
 * and the serve-only `--ready-file` and `--report`.
 */
export function serveOptions(command: Command): { options: Record<string, unknown>; readyFile?: string; reportFile?: string } {
  const { readyFile, report, ...o } = command.opts<Record<string, unknown>>();
  const port = o['port'] ?? process.env['PORT'];
  const inMemory = envFlag(command, 'inMemory') ?? o['inMemory'];
  // --no-bundled-scenarios: DEPOSIT_SANDBOX_NO_BUNDLED_SCENARIOS=1 turns them off, =0 leaves them on.
  const noBundled = envFlag(command, 'bundledScenarios');
  const bundledScenarios = noBundled === undefined ? o['bundledScenarios'] : !noBundled;
  // --no-record: DEPOSIT_SANDBOX_NO_RECORD=1 turns recording off, =0 leaves it on.
  const noRecord = envFlag(command, 'record');
  const record = noRecord === undefined ? o['record'] : !noRecord;
  const options = Object.fromEntries(Object.entries({ ...o, port, inMemory, bundledScenarios, record }).filter(([, value]) => value !== undefined));
  return { options, ...(typeof readyFile === 'string' ? { readyFile } : {}), ...(typeof report === 'string' ? { reportFile: report } : {}) };
}

/**
 * For each option, how the user set it: `--port`, or the environment variable that held the
 * value (`DEPOSIT_SANDBOX_PORT`, `PORT`), so an error names what the user actually wrote.
 */
export function optionNames(command: Command): Record<string, string> {
  const names: Record<string, string> = {};
  for (const option of command.options) {
    const key = option.attributeName();
    const source = command.getOptionValueSource(key);
    if (source === 'env' && option.envVar) names[key] = option.envVar;
    else if (option.long) names[key] = option.long;
  }
  if (command.opts()['port'] === undefined && process.env['PORT'] !== undefined) names['port'] = 'PORT';
  return names;
}
