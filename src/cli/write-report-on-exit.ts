import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Server } from '../server/server.js';
import { reportJunit } from '../report/report-formats.js';
import { serverReport } from '../report/server-report.js';

/**
 * `serve --report <file>`: writes the integration report of the whole server (every workspace,
 * deleted ones included) as JUnit XML when the process exits (after the sandbox has stopped,
 * whatever the exit path: SIGTERM, SIGINT, SIGHUP or any other). A failure to write it is told to
 * the sandbox's logger. Returns the absolute path.
 */
export function writeReportOnExit(server: Server, file: string): string {
  const path = resolve(file);
  process.once('exit', () => {
    try {
      writeFileSync(path, reportJunit(serverReport(server.root, server.workspaces)));
    } catch (error) {
      server.services.logger?.warn(`could not write the integration report to ${path}: ${(error as Error).message}`);
    }
  });
  return path;
}
