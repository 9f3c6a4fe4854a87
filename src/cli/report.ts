import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { type SandboxTarget, withSandbox } from '../admin-client/sandbox-target.js';
import { FAIL_ON, type FailOn, failingRows } from '../report/coverage-formats.js';
import { reportJunit, reportMarkdown } from '../report/report-formats.js';
import type { IntegrationReport } from '../report/report-schema.js';
import { addAdminOptions, adminTarget } from './admin-options.js';

export interface ReportOptions {
  format?: 'junit' | 'markdown' | 'json';
  output?: string;
  /** Exit 1 when a coverage row is wrong (`wrong`), or not handled yet (`not-handled`). */
  failOn?: FailOn;
}

/**
 * `deposit-sandbox report`: reads GET /_sandbox/report of a running sandbox and prints it (or
 * writes it to --output) as Markdown, JUnit XML or JSON. Throws an Error that says what went wrong
 * and which sandbox was asked.
 */
export async function reportCommand(target: SandboxTarget, options: ReportOptions = {}, write: (text: string) => void = (text) => process.stdout.write(text)): Promise<IntegrationReport> {
  const report = await withSandbox(target, (client) => client.report());
  const format = options.format ?? 'markdown';
  const text = format === 'junit' ? reportJunit(report, options.failOn) : format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : reportMarkdown(report);
  if (options.output === undefined) write(text);
  else writeFileSync(resolve(options.output), text);
  return report;
}

/** Registers `deposit-sandbox report`. */
export function registerReport(program: Command): void {
  addAdminOptions(program.command('report').description("print the merchant's mistakes and the integration coverage a running sandbox counted, as Markdown, JUnit XML or JSON"))
    .addOption(new Option('--format <format>', 'markdown (default), junit or json').choices(['markdown', 'junit', 'json']))
    .option('--output <file>', 'write to this file instead of printing')
    .addOption(new Option('--fail-on <rows>', 'exit 1 when a coverage row is wrong, or (not-handled) not handled yet').choices([...FAIL_ON]))
    .addHelpText(
      'after',
      '\nWithout --fail-on it exits 0 whatever the report holds: CI shows the JUnit\nfailures (mistakes, coverage rows answered wrong) as failed tests, and the\ncoverage rows not handled as skipped ones.\n\nExamples:\n  $ deposit-sandbox report\n  $ deposit-sandbox report --url http://127.0.0.1:5000 --format junit --output sandbox-report.xml\n  $ deposit-sandbox report --format junit --output sandbox-report.xml --fail-on wrong\n',
    )
    .action(async (options: ReportOptions, command: Command) => {
      const report = await reportCommand(adminTarget(command), options);
      const failing = options.failOn === undefined ? [] : failingRows(report, options.failOn);
      if (failing.length > 0) {
        process.stderr.write(
          `deposit-sandbox: --fail-on ${options.failOn}: ${failing.length} coverage ${failing.length === 1 ? 'row fails' : 'rows fail'}:\n${failing.map((line) => `  ${line}\n`).join('')}`,
        );
        process.exitCode = 1;
      }
    });
}
