import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { AdminClient } from '../admin-client/admin-client.js';
import { reportJunit, reportMarkdown } from '../report/report-formats.js';
import type { IntegrationReport } from '../report/report-schema.js';

export interface ReportOptions {
  url?: string;
  adminToken?: string;
  format?: 'junit' | 'markdown' | 'json';
  output?: string;
}

/**
 * `deposit-sandbox report`: reads GET /_sandbox/report of a running sandbox and prints it (or
 * writes it to --output) as Markdown, JUnit XML or JSON. Throws an Error that says what went wrong.
 */
export async function reportCommand(options: ReportOptions = {}, write: (text: string) => void = (text) => process.stdout.write(text)): Promise<IntegrationReport> {
  const client = new AdminClient({ url: options.url, adminToken: options.adminToken });
  const report = await client.report();
  const format = options.format ?? 'markdown';
  const text = format === 'junit' ? reportJunit(report) : format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : reportMarkdown(report);
  if (options.output === undefined) write(text);
  else writeFileSync(resolve(options.output), text);
  return report;
}

/** Registers `deposit-sandbox report`. */
export function registerReport(program: Command, defaultUrl: string): void {
  program
    .command('report')
    .description("print the merchant's mistakes a running sandbox counted (integration report), as Markdown or JUnit XML")
    .addOption(new Option('--url <url>', `the sandbox address (default ${defaultUrl})`).env('DEPOSIT_SANDBOX_URL'))
    .addOption(new Option('--admin-token <token>', "the sandbox's --admin-token, if it has one").env('DEPOSIT_SANDBOX_ADMIN_TOKEN'))
    .addOption(new Option('--format <format>', 'markdown (default), junit or json').choices(['markdown', 'junit', 'json']))
    .option('--output <file>', 'write to this file instead of printing')
    .addHelpText(
      'after',
      '\nExits 0 whatever the report holds: CI shows the JUnit failures as failed tests.\n\nExamples:\n  $ deposit-sandbox report\n  $ deposit-sandbox report --url http://127.0.0.1:5000 --format junit --output sandbox-report.xml\n',
    )
    .action(async (options: ReportOptions) => {
      await reportCommand(options);
    });
}
