import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { withSandbox, type SandboxTarget } from '../admin-client/sandbox-target.js';
import { reportJunit, reportMarkdown } from '../report/report-formats.js';
import type { IntegrationReport } from '../report/report-schema.js';
import { addAdminOptions, adminTarget } from './admin-options.js';

export interface ReportOptions {
  format?: 'junit' | 'markdown' | 'json';
  output?: string;
}

/**
 * `deposit-sandbox report`: reads GET /_sandbox/report of a running sandbox and prints it (or
 * writes it to --output) as Markdown, JUnit XML or JSON. Throws an Error that says what went wrong
 * and which sandbox was asked.
 */
export async function reportCommand(target: SandboxTarget, options: ReportOptions = {}, write: (text: string) => void = (text) => process.stdout.write(text)): Promise<IntegrationReport> {
  const report = await withSandbox(target, (client) => client.report());
  const format = options.format ?? 'markdown';
  const text = format === 'junit' ? reportJunit(report) : format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : reportMarkdown(report);
  if (options.output === undefined) write(text);
  else writeFileSync(resolve(options.output), text);
  return report;
}

/** Registers `deposit-sandbox report`. */
export function registerReport(program: Command): void {
  addAdminOptions(program.command('report').description("print the merchant's mistakes a running sandbox counted (integration report), as Markdown or JUnit XML"))
    .addOption(new Option('--format <format>', 'markdown (default), junit or json').choices(['markdown', 'junit', 'json']))
    .option('--output <file>', 'write to this file instead of printing')
    .addHelpText(
      'after',
      '\nExits 0 whatever the report holds: CI shows the JUnit failures as failed tests.\n\nExamples:\n  $ deposit-sandbox report\n  $ deposit-sandbox report --url http://127.0.0.1:5000 --format junit --output sandbox-report.xml\n',
    )
    .action(async (options: ReportOptions, command: Command) => {
      await reportCommand(adminTarget(command), options);
    });
}
