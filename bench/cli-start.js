// What a `deposit-sandbox serve` start costs with the CLI's code cache (src/cli/code-cache.ts)
// against the same start compiled from source (NODE_DISABLE_COMPILE_CACHE=1), measured in the
// same run.
//
//   node bench/cli-start.js [rounds, default 5]      (needs the build in dist/: npm run build; Linux: it reads /proc)
//
// Each sample is a fresh `serve --in-memory --port 0`: the CPU its process used from its start to
// its ready line (/proc/<pid>/stat), then it is killed. The cache lives in a folder of this run
// (TMPDIR), filled by one start that exits cleanly before the samples. The two kinds run in turn,
// process by process, with the order flipped on every pair; the medians are compared. Goal: with
// the cache at most 0.8 x the CPU of a start without it. Two runs of the cached start against
// each other (A/A) show what the method cannot tell apart.
// Bounded (a watchdog ends it after 120 s) and self-stopping.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alternate } from './lib/alternate.js';
import { cpuMs, killAll, SANDBOX_BIN, start, stop } from './lib/processes.js';

const ROUNDS = Number(process.argv[2] ?? 5);
const PAIRS = ROUNDS * 4;

if (!existsSync('/proc/self/stat')) {
  process.stdout.write('  cli start: skipped, it reads the CPU of a process from /proc (Linux only)\n');
  process.exit(0);
}

const cacheRoot = mkdtempSync(join(tmpdir(), 'deposit-sandbox-bench-cache-'));
const watchdog = setTimeout(() => {
  console.error('cli-start bench: still running after 120 s, stopping');
  killAll();
  rmSync(cacheRoot, { recursive: true, force: true });
  process.exit(1);
}, 120_000);

const KINDS = {
  cached: { TMPDIR: cacheRoot, NODE_DISABLE_COMPILE_CACHE: '' },
  source: { TMPDIR: cacheRoot, NODE_DISABLE_COMPILE_CACHE: '1' },
};

/** Starts serve as `kind`; resolves with the CPU milliseconds its process used up to the ready line, once it has ended (killed, or stopped cleanly with `clean`). */
async function sample(kind, clean = false) {
  const sandbox = await start(SANDBOX_BIN, ['serve', '--in-memory', '--port', '0', '--host', '127.0.0.1'], { env: KINDS[kind] });
  const ms = cpuMs(sandbox.child.pid);
  if (clean) await stop(sandbox.child);
  else await new Promise((resolve) => sandbox.child.once('exit', resolve).kill('SIGKILL'));
  return ms;
}

// One clean stop fills the cache (it is written two seconds after the start, or when the process exits).
await sample('cached', true);
const cost = await alternate(sample, 'cached', 'source', PAIRS);
const same = await alternate(sample, 'cached', 'cached', PAIRS);
clearTimeout(watchdog);
rmSync(cacheRoot, { recursive: true, force: true });

const ratio = cost.a / cost.b;
process.stdout.write(
  `  start \`serve\` up to its ready line, in a fresh process: with the code cache / compiled from source (median CPU of ${PAIRS} processes each, in turn): ${cost.a.toFixed(0)} / ${cost.b.toFixed(0)} ms = ${ratio.toFixed(3)} (the cached start against itself: ${(same.a / same.b).toFixed(3)})   goal <= 0.8   ${ratio <= 0.8 ? 'PASS' : 'FAIL'}\n`,
);
