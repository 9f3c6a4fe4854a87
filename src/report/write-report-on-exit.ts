import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Sandbox } from '../sandbox-types.js';
import { reportJunit } from './report-formats.js';
import { serverReport } from './server-report.js';

/**
 * `serve --report <file>`: writes the integration report of the whole server (every workspace,
 * deleted ones included) as JUnit XML when the process exits (after the sandbox has stopped,
 * whatever the exit path: SIGTERM, SIGINT, SIGHUP or any other). Returns the absolute path.
 */
export function writeReportOnExit(sandbox: Sandbox, file: string): string {
  const path = resolve(file);
  process.once('exit', () => {
    try {
      writeFileSync(path, reportJunit(serverReport(sandbox)));
    } catch (error) {
      process.stderr.write(`deposit-sandbox: could not write the integration report to ${path}: ${(error as Error).message}\n`);
    }
  });
  return path;
}
