import { listen } from '../server.js';
import { createSandbox } from '../sandbox.js';
import type { SandboxOptionsInput } from '../config/options.js';
import { exposureWarning } from '../security/exposure-warning.js';

/** `deposit-sandbox serve`: start, print the ready line, stop cleanly on SIGINT/SIGTERM. */
export async function serveCommand(options: SandboxOptionsInput): Promise<void> {
  // A reader that closed our stdout (e.g. `| head -1`) must not crash the sandbox before
  // it has flushed the store: ignore EPIPE on the output streams.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
  const sandbox = await createSandbox(options, undefined, { deferStart: true });
  const running = await listen(sandbox).catch(async (error: NodeJS.ErrnoException) => {
    await sandbox.close();
    if (error.code === 'EADDRINUSE') {
      throw new Error(`Port ${sandbox.options.port} on ${sandbox.options.host} is already in use. Stop the other process, or pass --port 0 to pick a free port.`);
    }
    throw error;
  });
  // Handlers go in before the ready line: a supervisor may signal as soon as it reads it.
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`deposit-sandbox: ${signal} received, finishing requests and saving the store\n`);
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`deposit-sandbox: could not save the store on exit: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.stdout.write(`deposit-sandbox listening on ${running.url}\n`);
  const warning = exposureWarning(sandbox.options);
  if (warning) process.stderr.write(warning);
  const demo = sandbox.merchants.list()[0];
  process.stdout.write(
    [
      `  store:    ${sandbox.store.adapter.location} (${sandbox.store.trades.size} trades)`,
      `  auth:     ${sandbox.options.auth}; clock: ${sandbox.clock.mode}`,
      `  payments: ${sandbox.publicUrl}/pay/<trade id>`,
      // Never a token or secret in the log: the README and the fixtures file list them.
      demo ? `  merchant: ${demo.name} ${demo.id} (token and secret: see the fixtures file)` : '',
      '',
    ]
      .filter((line, index, all) => line !== '' || index === all.length - 1)
      .join('\n'),
  );
}
