import { listen } from '../server/listen.js';
import { createServer } from '../server/server.js';
import { parseOptions } from '../sandbox.js';
import type { SandboxOptionsInput } from '../config/options.js';
import { handleShutdownSignals } from './shutdown.js';
import { writeReportOnExit } from './write-report-on-exit.js';
import { exposureWarning } from '../security/exposure-warning.js';
import { writeReadyFile } from './ready-file.js';
import { consoleLogger } from './console-logger.js';
import { startupLines } from './startup-lines.js';
import { declaredInContainer } from '../security/running-in-container.js';

export interface ServeExtras {
  /** How each option was given (`--port`, `PORT`, ...), for errors that name it. */
  names?: Readonly<Record<string, string>>;
  /** Write {"url", "pid"} here once listening; removed on exit. */
  readyFile?: string;
  /** Write the integration report (JUnit XML) here on exit. */
  reportFile?: string;
}

/** `deposit-sandbox serve`: start, print the ready line, stop in bounded time on SIGINT/SIGTERM (./shutdown.ts). */
export async function serveCommand(options: SandboxOptionsInput, extras: ServeExtras = {}): Promise<void> {
  // Checked here first so that a bad value names the flag or environment variable it came from.
  parseOptions(options, extras.names);
  // A reader that closed our stdout (e.g. `| head -1`) must not crash the sandbox before
  // it has flushed the store: ignore EPIPE on the output streams.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
  // The same logger for the default sandbox and every workspace, given at creation.
  const server = await createServer(options, { deferStart: true, services: { logger: consoleLogger() } });
  const sandbox = server.root;
  const running = await listen(server).catch(async (error: NodeJS.ErrnoException) => {
    await server.close();
    if (error.code === 'EADDRINUSE') {
      throw new Error(`Port ${sandbox.options.port} on ${sandbox.options.host} is already in use. Stop the other process, or pass --port 0 to pick a free port.`);
    }
    throw error;
  });
  // The integration report (src/report): written on exit, whichever way the process stops.
  if (extras.reportFile !== undefined) writeReportOnExit(server, extras.reportFile);
  // Handlers go in before the ready line: a supervisor may signal as soon as it reads it.
  handleShutdownSignals(running, sandbox);
  // The ready file goes in before the ready line, so that whichever a script watches, the other is there too.
  if (extras.readyFile !== undefined) {
    try {
      writeReadyFile(extras.readyFile, running.url);
    } catch (error) {
      await running.close();
      throw error;
    }
  }
  process.stdout.write(`deposit-sandbox listening on ${running.url}\n`);
  // The port it listens on (--port 0 picks one), for the advice on publishing it.
  const warning = exposureWarning({ ...sandbox.options, port: Number(new URL(running.url).port) });
  if (warning) process.stderr.write(warning);
  process.stdout.write(startupLines(sandbox, declaredInContainer() === true));
}
