// What a merchant's test process pays to import the package and start a sandbox: the package's
// entry (dist/lib/index.mjs, one bundle) against the tsc build it is made from (dist/index.js,
// a few hundred files), measured in the same run.
//
//   node bench/package-import.js [rounds, default 5]      (needs the build in dist/: npm run build)
//
// Each sample is a fresh Node process that imports one of the two, starts an in-memory sandbox
// on a free port, closes it and prints the CPU it used from before the import to after the
// close (process.cpuUsage(): the process's own start-up before the import is the same for both
// and left out). The two kinds run in turn, process by process, with the order flipped on every
// pair; the medians are compared. Goal: the bundle at most 0.6 x the tsc build's CPU. Two runs
// of the bundle against each other (A/A) show what the method cannot tell apart.
// Bounded (a watchdog ends it after 120 s) and self-stopping.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { alternate } from './lib/alternate.js';

const ROUNDS = Number(process.argv[2] ?? 5);
const PAIRS = ROUNDS * 4;
const BUNDLE = fileURLToPath(new URL('../dist/lib/index.mjs', import.meta.url));
const TSC_BUILD = fileURLToPath(new URL('../dist/index.js', import.meta.url));

const watchdog = setTimeout(() => {
  console.error('package-import bench: still running after 120 s, stopping');
  process.exit(1);
}, 120_000);

const CHILD = `
const before = process.cpuUsage();
const { startSandbox } = await import(process.argv[1]);
const sandbox = await startSandbox({ inMemory: true, port: 0 });
await sandbox.close();
const used = process.cpuUsage(before);
process.stdout.write(String((used.user + used.system) / 1000));
`;

/** CPU milliseconds of one fresh process importing `entry` and starting and closing a sandbox. */
function sample(entry) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', CHILD, entry], { timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${entry}: ${error.message}\n${stderr}`));
      else resolve(Number(stdout));
    });
  });
}

// Every sample is a process of its own; alternate() runs a tenth as many first, untimed.
const cost = await alternate(sample, BUNDLE, TSC_BUILD, PAIRS);
const same = await alternate(sample, BUNDLE, BUNDLE, PAIRS);
clearTimeout(watchdog);

const ratio = cost.a / cost.b;
process.stdout.write(
  `  import the package and start and close a sandbox, in a fresh process: the package's entry (one bundle) / the tsc build (median CPU of ${PAIRS} processes each, in turn): ${cost.a.toFixed(0)} / ${cost.b.toFixed(0)} ms = ${ratio.toFixed(3)} (the bundle against itself: ${(same.a / same.b).toFixed(3)})   goal <= 0.6   ${ratio <= 0.6 ? 'PASS' : 'FAIL'}\n`,
);
