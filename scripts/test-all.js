#!/usr/bin/env node
// `npm test`: the build, the typecheck, the lint, then every suite: vitest (src/, test/,
// examples/, the browser tests), the example suites in Python, PHP and Go, and the container
// test. Each stage prints `stage <name>: <seconds> s` when it ends, and a table of them closes the
// run, so the time goes where it can be seen. A failed build stops the run (every suite needs
// dist/); any other stage runs even when an earlier one failed. Each suite writes its results under
// test-artifacts/, a stage that failed without a result of its own is written there as one failed
// case, and the last line printed is the total, "N passed, N failed[, N skipped]". Arguments are
// passed to the main vitest run; TEST_STAGES=build,vitest (names, comma-separated) runs only
// those stages.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { artifact, ARTIFACTS, ensureReported, ROOT, run, writeNote } from './lib/suites.js';
import { readResults, summarize } from './test-summary.js';

const bin = (pkg, file) => join(ROOT, 'node_modules', pkg, file);
const VITEST = bin('vitest', 'vitest.mjs');
const node = (...args) => run(process.execPath, args);
const vitest = (name, args) => {
  const env = { ...process.env, TEST_PROGRESS_FILE: artifact(`${name}-progress.ndjson`) };
  const reporters = ['--reporter=default', '--reporter=json', `--outputFile=${artifact(`${name}.json`)}`, `--reporter=${join(ROOT, 'scripts', 'lib', 'progress-reporter.js')}`];
  return run(process.execPath, [VITEST, 'run', ...reporters, ...args], { env });
};

rmSync(ARTIFACTS, { recursive: true, force: true });
const stages = [
  { name: 'build', stops: true, run: () => run('npm', ['run', '--silent', 'build']) },
  { name: 'typecheck', run: () => node(bin('typescript', 'bin/tsc'), '-p', 'tsconfig.json', '--noEmit') },
  { name: 'typecheck (browser scripts)', run: () => node(bin('typescript', 'bin/tsc'), '-p', 'tsconfig.client.json') },
  { name: 'lint', run: () => run(join(ROOT, 'node_modules', '.bin', 'biome'), ['check', '.']) },
  { name: 'vitest', file: 'vitest.json', run: () => vitest('vitest', process.argv.slice(2)) },
  { name: 'examples', run: () => node(join(ROOT, 'scripts', 'test-examples.js')) },
  { name: 'container', file: 'container.json', run: () => vitest('container', ['--config', 'vitest.container.config.ts']) },
];

const only = process.env.TEST_STAGES?.split(',').map((name) => name.trim());
const unknown = only?.filter((name) => !stages.some((stage) => stage.name === name));
if (unknown?.length) {
  process.stderr.write(`TEST_STAGES names no stage ${unknown.join(', ')}; the stages are: ${stages.map((stage) => stage.name).join(', ')}\n`);
  process.exit(2);
}

const failedStages = [];
const times = [];
const started = performance.now();
for (const stage of stages.filter((s) => !only || only.includes(s.name))) {
  process.stdout.write(`\n=== ${stage.name}\n`);
  const start = performance.now();
  const outcome = await stage.run();
  const seconds = ((performance.now() - start) / 1000).toFixed(1);
  times.push(`  ${stage.name}: ${seconds} s${outcome.status === 0 ? '' : ' (failed)'}`);
  process.stdout.write(`stage ${stage.name}: ${seconds} s\n`);
  const slug = stage.name.replace(/\W+/g, '-').replace(/-$/, '');
  if (stage.file) ensureReported(stage.file, stage.file.replace(/\.json$/, '-run.xml'), stage.name, outcome, artifact(stage.file.replace(/\.json$/, '-progress.ndjson')));
  else if (outcome.status !== 0 && stage.name !== 'examples') writeNote(`${slug}-run.xml`, stage.name, 'failure', outcome.why);
  if (outcome.status !== 0) failedStages.push(`${stage.name}: ${outcome.why}`);
  if (outcome.status !== 0 && stage.stops) {
    process.stdout.write('The build failed: the suites need dist/, so none ran.\n');
    break;
  }
}

const { total, lines } = summarize(readResults());
process.stdout.write(`\n=== stage times\n${times.join('\n')}\n  total: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
process.stdout.write(`\n=== results (test-artifacts/)\n${lines.join('\n')}\n`);
if (failedStages.length > 0 && total.failed === 0) process.stdout.write(`but: ${failedStages.join('; ')}\n`);
process.exitCode = failedStages.length > 0 || total.failed > 0 ? 1 : 0;
