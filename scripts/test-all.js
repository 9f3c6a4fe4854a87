#!/usr/bin/env node
// The suites of `npm test` after the build and typecheck: vitest (src/, test/), the example
// suites in Python, PHP and Go, and the container test. Each runs even when an earlier one
// failed; each writes its results under test-artifacts/, and the last line printed is the
// total, "N passed, N failed[, N skipped]". Arguments are passed to the main vitest run.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { artifact, ARTIFACTS, ensureReported, ROOT, run } from './lib/suites.js';
import { readResults, summarize } from './test-summary.js';

const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const vitest = (file, args) => ['run', '--reporter=default', '--reporter=json', `--outputFile=${artifact(file)}`, ...args];

rmSync(ARTIFACTS, { recursive: true, force: true });
const steps = [
  { name: 'vitest', file: 'vitest.json', run: () => run(process.execPath, [VITEST, ...vitest('vitest.json', process.argv.slice(2))]) },
  { name: 'examples', run: () => run(process.execPath, [join(ROOT, 'scripts', 'test-examples.js')]) },
  { name: 'container', file: 'container.json', run: () => run(process.execPath, [VITEST, ...vitest('container.json', ['--config', 'vitest.container.config.ts'])]) },
];

const failedSteps = [];
for (const step of steps) {
  process.stdout.write(`\n=== ${step.name}\n`);
  const outcome = step.run();
  if (step.file) ensureReported(step.file, step.file.replace(/\.json$/, '-run.xml'), step.name, outcome);
  if (outcome.status !== 0) failedSteps.push(`${step.name}: ${outcome.why}`);
}

const { total, lines } = summarize(readResults());
process.stdout.write(`\n=== results (test-artifacts/)\n${lines.join('\n')}\n`);
if (failedSteps.length > 0 && total.failed === 0) process.stdout.write(`but: ${failedSteps.join('; ')}\n`);
process.exitCode = failedSteps.length > 0 || total.failed > 0 ? 1 : 0;
