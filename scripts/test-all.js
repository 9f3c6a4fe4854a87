#!/usr/bin/env node
// `npm test`: the build, the typecheck, the lint and the import rules (scripts/check-layers.js), then every suite: vitest (src/, test/,
// examples/, the browser tests), the example suites in Python, PHP and Go, and the container
// test. Each stage prints `stage <name>: <seconds> s` when it ends, and a table of them closes
// the run, so the time can be seen where it goes.
//
// Stages run in lanes side by side: the build and then vitest, the critical path, at normal
// priority; beside them, at a lower CPU priority (nice 10) so they take what the critical path
// leaves, the typechecks, the lint and the import rules; and at normal priority, the
// examples once the build is there, and the container test, which builds its own image from the
// sources, so it starts at once. vitest writes to the terminal; every other stage to test-artifacts/logs/<stage>.log,
// whose end is printed when the stage fails. A failed build stops every stage that needs dist/;
// any other stage runs even when another failed. Each suite writes its results under
// test-artifacts/; a stage that failed without a result of its own is written there as one
// failed case, and the last line printed is the total, "N passed, N failed[, N skipped]".
//
// Arguments are passed to the main vitest run. TEST_STAGES=build,vitest (names, comma-separated)
// runs only those stages.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { runAsync } from './lib/sandbox-process.js';
import { artifact, ARTIFACTS, ensureReported, ROOT, writeNote } from './lib/suites.js';
import { readResults, summarize } from './test-summary.js';
import { costliestFiles, formatCostliest, formatSlowest, slowestFiles } from './test-times.js';

const LOGS = join(ARTIFACTS, 'logs');
const bin = (pkg, file) => join(ROOT, 'node_modules', pkg, file);
const VITEST = bin('vitest', 'vitest.mjs');
const TSC = bin('typescript', 'bin/tsc');

const vitest = (name, args) => ({
  command: process.execPath,
  args: [VITEST, 'run', '--reporter=default', '--reporter=json', `--outputFile=${artifact(`${name}.json`)}`, `--reporter=${join(ROOT, 'scripts', 'lib', 'progress-reporter.js')}`, ...args],
  env: { ...process.env, TEST_PROGRESS_FILE: artifact(`${name}-progress.ndjson`), TEST_CPU_FILE: artifact(`${name}-cpu.ndjson`) },
  file: `${name}.json`,
});

/** Lower CPU priority of the stages beside the critical path (build, then vitest). */
const BESIDE = 10;

/**
 * Lanes run side by side; a lane runs its stages one after another. `needs: 'build'` waits for
 * the build (and is skipped when it failed); `nice` lowers the stage's CPU priority.
 */
const lanes = [
  [
    { name: 'build', command: 'npm', args: ['run', '--silent', 'build'] },
    { name: 'vitest', needs: 'build', terminal: true, ...vitest('vitest', process.argv.slice(2)) },
  ],
  // --singleThreaded: TypeScript 7 checks with several threads by default, which ends sooner on an
  // idle machine but costs more CPU in all; beside vitest the CPU is what counts.
  [{ name: 'typecheck', nice: BESIDE, command: process.execPath, args: [TSC, '-p', 'tsconfig.json', '--noEmit', '--singleThreaded'] }],
  [
    { name: 'typecheck (browser scripts)', nice: BESIDE, command: process.execPath, args: [TSC, '-p', 'tsconfig.client.json', '--singleThreaded'] },
    { name: 'lint', nice: BESIDE, command: join(ROOT, 'node_modules', '.bin', 'biome'), args: ['check', '.'] },
    { name: 'import rules', nice: BESIDE, command: process.execPath, args: [join(ROOT, 'scripts', 'check-layers.js')] },
  ],
  [
    // In a lane of its own, so it starts once the build is there, not behind the checks. Normal
    // priority: its suites hold time limits of their own (a 5 s test timeout, a probe of the
    // toolchain) that a starved process misses.
    // Its own per-suite results and notes (test-examples.js writes them); its line per suite is shown.
    {
      name: 'examples',
      needs: 'build',
      own: true,
      shows: /^examples\/.*: (passed|FAILED)|^(skipped|FAILED): /,
      command: process.execPath,
      args: [join(ROOT, 'scripts', 'test-examples.js')],
    },
  ],
  // Normal priority: it is a long chain of short steps that mostly wait on the disk; at a lower
  // priority it would wait for the CPU at each of them and end after vitest.
  [{ name: 'container', ...vitest('container', ['--config', 'vitest.container.config.ts']) }],
];

const all = lanes.flat();
const only = process.env.TEST_STAGES?.split(',').map((name) => name.trim());
const unknown = only?.filter((name) => !all.some((stage) => stage.name === name));
if (unknown?.length) {
  process.stderr.write(`TEST_STAGES names no stage ${unknown.join(', ')}; the stages are: ${all.map((stage) => stage.name).join(', ')}\n`);
  process.exit(2);
}

rmSync(ARTIFACTS, { recursive: true, force: true });
mkdirSync(LOGS, { recursive: true });

const failed = [];
const times = [];
/** CPU seconds of every stage (what the processes of each used), for the floor the cores put under the total. */
let cpuTotal = 0;
let buildFailed = false;
/** Settles when the build stage has ended (at once when it is not run). */
let buildEnded;
const buildDone = new Promise((resolve) => (buildEnded = resolve));

async function runStage(stage) {
  const slug = stage.name.replace(/\W+/g, '-').replace(/-$/, '');
  const logFile = stage.terminal ? undefined : join(LOGS, `${slug}.log`);
  if (logFile) process.stdout.write(`--- ${stage.name} (output: test-artifacts/logs/${slug}.log)\n`);
  const start = performance.now();
  // Where a stage writes the CPU of processes it started but nobody waits for (a line each:
  // "<seconds> <what>"; Chromium's zygotes and renderers, test/browser/chromium-server.ts).
  const detachedFile = artifact(`${slug}-detached-cpu.txt`);
  const env = { ...(stage.env ?? process.env), TEST_DETACHED_CPU_FILE: detachedFile };
  const outcome = await runAsync(stage.command, stage.args, { env, logFile, nice: stage.nice });
  const seconds = ((performance.now() - start) / 1000).toFixed(1);
  const detached = existsSync(detachedFile) ? detachedCpu(readFileSync(detachedFile, 'utf8')) : undefined;
  if (outcome.cpu !== undefined && detached) outcome.cpu += detached.seconds;
  const cpu = outcome.cpu === undefined ? '' : `, CPU ${outcome.cpu.toFixed(1)} s${detached ? ` (with ${detached.seconds.toFixed(1)} s of ${detached.what})` : ''}`;
  if (outcome.cpu !== undefined) cpuTotal += outcome.cpu;
  times.push(`  ${stage.name}: ${seconds} s${cpu}${outcome.status === 0 ? '' : ' (failed)'}`);
  process.stdout.write(`stage ${stage.name}: ${seconds} s${cpu}${outcome.status === 0 ? '' : ' (failed)'}\n`);
  if (stage.shows && logFile) {
    const shown = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => stage.shows.test(line));
    if (shown.length > 0) process.stdout.write(`${shown.map((line) => `  ${line}`).join('\n')}\n`);
  }
  if (stage.name === 'vitest' && existsSync(artifact('vitest.json'))) {
    process.stdout.write(`the slowest files (node scripts/test-times.js lists more):\n${formatSlowest(slowestFiles(artifact('vitest.json')).slice(0, 10))}\n`);
  }
  if (stage.name === 'vitest' && existsSync(artifact('vitest-cpu.ndjson'))) {
    process.stdout.write(
      `the files that used the most CPU (node scripts/test-times.js --cpu lists more; Chromium's renderers are in the stage's CPU only):\n${formatCostliest(costliestFiles(artifact('vitest-cpu.ndjson')).slice(0, 10))}\n`,
    );
  }
  if (stage.file) ensureReported(stage.file, stage.file.replace(/\.json$/, '-run.xml'), stage.name, outcome, artifact(stage.file.replace(/\.json$/, '-progress.ndjson')));
  else if (outcome.status !== 0 && !stage.own) writeNote(`${slug}-run.xml`, stage.name, 'failure', outcome.why);
  if (outcome.status !== 0) {
    failed.push(`${stage.name}: ${outcome.why}`);
    if (logFile) {
      const tail = readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-60).join('\n');
      process.stdout.write(`--- ${stage.name} failed; the end of test-artifacts/logs/${slug}.log:\n${tail}\n`);
    }
    if (stage.name === 'build') buildFailed = true;
  }
}

/** The sum and the names of the lines "<seconds> <what>" a stage wrote to its TEST_DETACHED_CPU_FILE. */
function detachedCpu(text) {
  const lines = text
    .split('\n')
    .map((line) => /^(\d+(?:\.\d+)?) (.+)$/.exec(line.trim()))
    .filter(Boolean);
  if (lines.length === 0) return undefined;
  return { seconds: lines.reduce((sum, [, n]) => sum + Number(n), 0), what: [...new Set(lines.map(([, , what]) => what))].join(', ') };
}

async function runLane(lane) {
  for (const stage of lane) {
    if (only && !only.includes(stage.name)) {
      if (stage.name === 'build') buildEnded();
      continue;
    }
    if (stage.needs === 'build') {
      await buildDone;
      if (buildFailed) {
        process.stdout.write(`${stage.name}: not run, the build failed (it needs dist/).\n`);
        continue;
      }
    }
    await runStage(stage);
    if (stage.name === 'build') buildEnded();
  }
}

const started = performance.now();
await Promise.all(lanes.map(runLane));

const { total, lines } = summarize(readResults());
const cores = availableParallelism();
const floor = cpuTotal > 0 ? `\n  CPU of every stage: ${cpuTotal.toFixed(1)} s; on ${cores} cores no run of these stages can take less than ${(cpuTotal / cores).toFixed(1)} s` : '';
process.stdout.write(
  `\n=== stage times (side by side in lanes: the total is less than their sum; CPU is what each stage's processes used)\n${times.join('\n')}\n  total: ${((performance.now() - started) / 1000).toFixed(1)} s${floor}\n`,
);
process.stdout.write(`\n=== results (test-artifacts/)\n${lines.join('\n')}\n`);
if (failed.length > 0 && total.failed === 0) process.stdout.write(`but: ${failed.join('; ')}\n`);
process.exitCode = failed.length > 0 || total.failed > 0 ? 1 : 0;
