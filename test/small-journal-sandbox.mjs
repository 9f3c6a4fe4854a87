// A sandbox on a data folder (startSandbox() of the build in dist/, as `serve --port 0 --data
// <data>` runs it) whose workspaces' journal starts a new generation every few records: the
// server's store says its compaction threshold is `<compactBytes>` bytes instead of 64 MiB, and
// the workspaces' journal rotates at 4 times that (JOURNAL_GROWTH_LIMIT, compaction-policy.ts),
// otherwise 256 MiB. No option of the CLI sets it, so test/crash-order-rotation.test.ts runs this
// in a process of its own and kills it like the CLI (bundled once for the file by
// test/small-journal-bundle.ts, so that each start reads a few files instead of dist/'s few
// hundred). SIGTERM stops it cleanly (exit 0, or 1 with the error on stderr when the store could
// not be saved).
//
//   node test/small-journal-sandbox.mjs <data> <compactBytes>
import { startSandbox } from '../dist/index.js';
import { JournalAdapter } from '../dist/store/journal-adapter.js';

const [data, compactBytes] = process.argv.slice(2);
if (data === undefined || !(Number(compactBytes) > 0)) throw new Error('usage: small-journal-sandbox.mjs <data> <compactBytes>');
// The threshold the workspaces' registry reads to size the journal (the stores keep their own).
Object.defineProperty(JournalAdapter.prototype, 'compactBytes', { get: () => Number(compactBytes) });
const sandbox = await startSandbox({ data, port: 0, host: '127.0.0.1', workspaceTtl: 0 });
process.once('SIGTERM', () => {
  sandbox.close().then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(`deposit-sandbox: could not save the store on exit: ${error.message}\n`);
      process.exit(1);
    },
  );
});
process.stdout.write(`deposit-sandbox listening on ${sandbox.url}\n`);
