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
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alternate } from './lib/alternate.js';

const ROUNDS = Number(process.argv[2] ?? 5);
const PAIRS = ROUNDS * 4;
const BIN = fileURLToPath(new URL('../bin/deposit-sandbox.js', import.meta.url));
/** Clock ticks per second of /proc's CPU fields (USER_HZ, 100 on Linux). */
const TICKS = 100;

if (!existsSync('/proc/self/stat')) {
  process.stdout.write('  cli start: skipped, it reads the CPU of a process from /proc (Linux only)\n');
  process.exit(0);
}

const cacheRoot = mkdtempSync(join(tmpdir(), 'deposit-sandbox-bench-cache-'));
const children = new Set();
const watchdog = setTimeout(() => {
  console.error('cli-start bench: still running after 120 s, stopping');
  for (const child of children) child.kill('SIGKILL');
  rmSync(cacheRoot, { recursive: true, force: true });
  process.exit(1);
}, 120_000);

const ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DEPOSIT_SANDBOX_') && name !== 'PORT' && name !== 'NODE_DISABLE_COMPILE_CACHE'));
const KINDS = {
  cached: { ...ENV, TMPDIR: cacheRoot },
  source: { ...ENV, TMPDIR: cacheRoot, NODE_DISABLE_COMPILE_CACHE: '1' },
};

/** Starts serve with `env`; resolves with the CPU milliseconds its process used up to the ready line, then `stop` ends it. */
function sample(kind, stop = 'SIGKILL') {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--in-memory', '--port', '0', '--host', '127.0.0.1'], { env: KINDS[kind], stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let out = '';
    let err = '';
    child.stderr.on('data', (text) => (err += text));
    child.once('exit', (code) => {
      children.delete(child);
      if (!/listening on/.test(out)) reject(new Error(`serve exited with ${code} before its ready line:\n${err}`));
    });
    child.stdout.setEncoding('utf8').on('data', (text) => {
      if (/listening on/.test(out)) return;
      out += text;
      if (!/listening on/.test(out)) return;
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
      child.once('exit', () => resolve(ms));
      child.kill(stop);
    });
  });
}

// One clean stop fills the cache (it is written when the process exits).
await sample('cached', 'SIGTERM');
const cost = await alternate(sample, 'cached', 'source', PAIRS);
const same = await alternate(sample, 'cached', 'cached', PAIRS);
clearTimeout(watchdog);
rmSync(cacheRoot, { recursive: true, force: true });

const ratio = cost.a / cost.b;
process.stdout.write(
  `  start \`serve\` up to its ready line, in a fresh process: with the code cache / compiled from source (median CPU of ${PAIRS} processes each, in turn): ${cost.a.toFixed(0)} / ${cost.b.toFixed(0)} ms = ${ratio.toFixed(3)} (the cached start against itself: ${(same.a / same.b).toFixed(3)})   goal <= 0.8   ${ratio <= 0.8 ? 'PASS' : 'FAIL'}\n`,
);
