import { resolve } from 'node:path';
import { ScenarioEngine } from '../scenarios/scenario-engine.js';
import { SCENARIO_HEADER } from '../scenarios/scenario.js';

const MAGIC_COLUMN = 40;

export interface ScenariosCommandOptions {
  scenarios?: string;
  /** false: leave the bundled scenarios out (--no-bundled-scenarios). */
  bundledScenarios?: boolean;
  json?: boolean;
}

/**
 * `deposit-sandbox scenarios`: loads the --scenarios folder and the bundled one the way
 * `serve` does (a broken file throws with file, line and field), then lists them in match order.
 */
export function scenariosCommand(options: ScenariosCommandOptions, write: (text: string) => void = (text) => process.stdout.write(text)): void {
  const engine = ScenarioEngine.load(options.scenarios ? resolve(options.scenarios) : undefined, { bundled: options.bundledScenarios !== false });
  const list = engine.list();
  if (options.json) {
    write(`${JSON.stringify({ scenarios: list }, null, 2)}\n`);
    return;
  }
  if (list.length === 0) {
    write('No scenarios: the bundled ones are turned off (--no-bundled-scenarios) and no --scenarios folder was given.\n');
    return;
  }
  const nameWidth = Math.max(...list.map((s) => s.name.length));
  // Long trigger texts get their own line rather than widening every row.
  const magicWidth = Math.min(MAGIC_COLUMN, Math.max(...list.map((s) => s.magic.length)));
  const lines = [`${list.length} scenarios, in match order (first match wins):`];
  let source: string | undefined;
  for (const s of list) {
    if (s.source !== source) {
      source = s.source;
      lines.push('', `${source}${s.bundled ? ' (bundled)' : ''}`);
    }
    if (s.magic.length > magicWidth) lines.push(`  ${s.name.padEnd(nameWidth)}  ${s.magic}`, `  ${''.padEnd(nameWidth + magicWidth + 2)}  ${s.does}`);
    else lines.push(`  ${s.name.padEnd(nameWidth)}  ${s.magic.padEnd(magicWidth)}  ${s.does}`);
  }
  lines.push('', `Pick one by name with the header "${SCENARIO_HEADER}: <name>" on a create request; it wins over matching.`, '');
  write(lines.join('\n'));
}
