#!/usr/bin/env node
// `npm test`: the build, the typecheck, the lint and the import-circle check, then every suite: vitest (src/, test/,
// examples/, the browser tests), the example suites in Python, PHP and Go, and the container
// test. Each stage prints `stage <name>: <seconds> s` when it ends, and a table of them closes
// the run, so the time can be seen where it goes.
//
// Stages run in lanes side by side, since most of them wait on one core, a child process or the
// disk: the build beside the typechecks and the lint, then vitest beside the examples and the
// container. vitest writes to the terminal; every other stage to test-artifacts/logs/<stage>.log,
// whose end is printed when the stage fails. A failed build stops the run (every suite needs
// dist/); any other stage runs even when another failed. Each suite writes its results under
// test-artifacts/; a stage that failed without a result of its own is written there as one
// failed case, and the last line printed is the total, "N passed, N failed[, N skipped]".
//
// Arguments are passed to the main vitest run. TEST_STAGES=build,vitest (names, comma-separated)
// runs only those stages.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runAsync } from './lib/sandbox-process.js';
import { artifact, ARTIFACTS, ensureReported, ROOT, writeNote } from './lib/suites.js';
import { readResults, summarize } from './test-summary.js';
import { formatSlowest, slowestFiles } from './test-times.js';

const LOGS = join(ARTIFACTS, 'logs');
const bin = (pkg, file) => join(ROOT, 'node_modules', pkg, file);
const VITEST = bin('vitest', 'vitest.mjs');
const TSC = bin('typescript', 'bin/tsc');

const vitest = (name, args) => ({
  command: process.execPath,
  args: [VITEST, 'run', '--reporter=default', '--reporter=json', `--outputFile=${artifact(`${name}.json`)}`, `--reporter=${join(ROOT, 'scripts', 'lib', 'progress-reporter.js')}`, ...args],
  env: { ...process.env, TEST_PROGRESS_FILE: artifact(`${name}-progress.ndjson`) },
  file: `${name}.json`,
});

/** Each phase is a list of lanes; a lane runs its stages one after another. */
const phases = [
  [
    [{ name: 'build', stops: true, command: 'npm', args: ['run', '--silent', 'build'] }],
    [{ name: 'typecheck', command: process.execPath, args: [TSC, '-p', 'tsconfig.json', '--noEmit'] }],
    [
      { name: 'typecheck (browser scripts)', command: process.execPath, args: [TSC, '-p', 'tsconfig.client.json'] },
      { name: 'lint', command: join(ROOT, 'node_modules', '.bin', 'biome'), args: ['check', '.'] },
      { name: 'import circles', command: process.execPath, args: [join(ROOT, 'scripts', 'check-cycles.js')] },
    ],
  ],
  [
    [{ name: 'vitest', terminal: true, ...vitest('vitest', process.argv.slice(2)) }],
    [
      // Its own per-suite results and notes (test-examples.js writes them); its line per suite is shown.
      { name: 'examples', own: true, shows: /^examples\/.*: (passed|FAILED)|^(skipped|FAILED): /, command: process.execPath, args: [join(ROOT, 'scripts', 'test-examples.js')] },
      { name: 'container', ...vitest('container', ['--config', 'vitest.container.config.ts']) },
    ],
  ],
];

const all = phases.flat(2);
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
let stopped = false;

async function runStage(stage) {
  const slug = stage.name.replace(/\W+/g, '-').replace(/-$/, '');
  const logFile = stage.terminal ? undefined : join(LOGS, `${slug}.log`);
  if (logFile) process.stdout.write(`--- ${stage.name} (output: test-artifacts/logs/${slug}.log)\n`);
  const start = performance.now();
  const outcome = await runAsync(stage.command, stage.args, { env: stage.env ?? process.env, logFile });
  const seconds = ((performance.now() - start) / 1000).toFixed(1);
  times.push(`  ${stage.name}: ${seconds} s${outcome.status === 0 ? '' : ' (failed)'}`);
  process.stdout.write(`stage ${stage.name}: ${seconds} s${outcome.status === 0 ? '' : ' (failed)'}\n`);
  if (stage.shows && logFile) {
    const shown = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => stage.shows.test(line));
    if (shown.length > 0) process.stdout.write(`${shown.map((line) => `  ${line}`).join('\n')}\n`);
  }
  if (stage.name === 'vitest' && existsSync(artifact('vitest.json'))) {
    process.stdout.write(`the slowest files (node scripts/test-times.js lists more):\n${formatSlowest(slowestFiles(artifact('vitest.json')).slice(0, 10))}\n`);
  }
  if (stage.file) ensureReported(stage.file, stage.file.replace(/\.json$/, '-run.xml'), stage.name, outcome, artifact(stage.file.replace(/\.json$/, '-progress.ndjson')));
  else if (outcome.status !== 0 && !stage.own) writeNote(`${slug}-run.xml`, stage.name, 'failure', outcome.why);
  if (outcome.status !== 0) {
    failed.push(`${stage.name}: ${outcome.why}`);
    if (logFile) {
      const tail = readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-60).join('\n');
      process.stdout.write(`--- ${stage.name} failed; the end of test-artifacts/logs/${slug}.log:\n${tail}\n`);
    }
    if (stage.stops) stopped = true;
  }
}

const started = performance.now();
for (const lanes of phases) {
  if (stopped) {
    process.stdout.write('The build failed: the suites need dist/, so none ran.\n');
    break;
  }
  await Promise.all(
    lanes.map(async (lane) => {
      for (const stage of lane) if (!only || only.includes(stage.name)) await runStage(stage);
    }),
  );
}

const { total, lines } = summarize(readResults());
process.stdout.write(`\n=== stage times (side by side in lanes: the total is less than their sum)\n${times.join('\n')}\n  total: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
process.stdout.write(`\n=== results (test-artifacts/)\n${lines.join('\n')}\n`);
if (failed.length > 0 && total.failed === 0) process.stdout.write(`but: ${failed.join('; ')}\n`);
process.exitCode = failed.length > 0 || total.failed > 0 ? 1 : 0;
