#!/usr/bin/env node
// npm run test:examples: the Python, PHP and Go examples (examples/*), each with its own
// toolchain's runner and then its merchant flow again under one other provider profile
// (PROFILE_RUNS), and the parallel-worker examples of docs/workspaces.md (vitest threads and
// pytest-xdist against one sandbox, one workspace per worker); results under test-artifacts/.
// A missing toolchain skips its suite with a message; with CI=true it is a failure.
// Exits 1 when a suite failed. `node scripts/test-examples.js workspaces` runs only the suites
// whose name contains "workspaces".
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endedChildrenCpu, runAsync, startSandboxProcess } from './lib/sandbox-process.js';
import { artifact, CI, ensureReported, needs, ROOT, run, works, writeNote } from './lib/suites.js';

const APT = 'apt-get install -y';
// The first run of each example is under the sandbox profile, whatever this shell's
// DEPOSIT_SANDBOX_PROFILE says; PROFILE_RUNS (below) sets it for the second.
const { DEPOSIT_SANDBOX_PROFILE: _shellProfile, ...sandboxEnv } = process.env;
const goEnv = {
  ...sandboxEnv,
  GOPROXY: 'off', // standard library only: nothing to download
  GOTOOLCHAIN: 'local',
  GOFLAGS: '',
  ...(process.env.GOCACHE || process.env.HOME || process.env.XDG_CACHE_HOME ? {} : { GOCACHE: join(tmpdir(), 'deposit-sandbox-go-cache') }),
};

/** `probe()` once, however many suites ask (each probe starts the toolchain: a Python import of pytest takes a fraction of a second). */
const once = (probe) => {
  let answer;
  let asked = false;
  return () => {
    if (!asked) [answer, asked] = [probe(), true];
    return answer;
  };
};

/** The first Python with pytest and pytest-xdist (pyenv's python3 may lack Debian's python3-pytest-xdist). */
const xdistPython = once(() => ['python3', '/usr/bin/python3'].find((python) => works(python, ['-c', 'import pytest, xdist'])));
const missingPytest = once(() => needs('python3 with pytest', `${APT} python3-pytest`, 'python3', ['-c', 'import pytest']));
const missingPhp = once(
  () => needs('php-cli with php-curl', `${APT} php-cli php-curl`, 'php', ['-r', 'exit(extension_loaded("curl") ? 0 : 1);']) ?? needs('phpunit', `${APT} phpunit`, 'phpunit', ['--version']),
);
const missingGo = once(() => needs('go', `${APT} golang-go`, 'go', ['version']));
/**
 * The environment of the examples/python runs: the examples use pytest alone, so the plugins
 * that this machine's Python happens to have installed (hypothesis, pytest-benchmark, ...) are
 * not loaded: they would cost start-up time in every run and could change what pytest does.
 */
const pythonEnv = (env) => ({ ...env, PYTHONDONTWRITEBYTECODE: '1', PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' });

/**
 * The provider profile each language's merchant flow also runs under, besides sandbox: the
 * sandbox starts with --profile and the example's client and receiver follow it, chosen by the
 * DEPOSIT_SANDBOX_PROFILE the example reads (docs/other-languages.md). Only the flow runs again;
 * the test vectors of every built-in run once, in the first run.
 */
const PROFILE_RUNS = { python: 'md5-colon', php: 'hmac-sha512-base64', go: 'md5-colon' };
const withProfile = (profile) => ({ ...sandboxEnv, DEPOSIT_SANDBOX_PROFILE: profile });
/** Go's flow tests (deposit_test.go): every test but the vectors of profile_vectors_test.go. */
const GO_FLOW_TESTS = '^Test(SignaturesMatch|CreatePay|AForged|ABadSignature|ALostCreate)';

const allSuites = [
  {
    name: 'examples/python (pytest)',
    file: 'pytest.xml',
    note: 'pytest-run.xml',
    missing: missingPytest,
    run: () => {
      const env = pythonEnv(sandboxEnv);
      const outcome = run('python3', ['-m', 'pytest', 'examples/python', '-q', '-p', 'no:cacheprovider', `--junitxml=${artifact('pytest.xml')}`], { env });
      // pytest exits 5 when it collected no test: a suite that tests nothing is a failure.
      return outcome.status === 5 ? { status: 5, why: 'pytest collected no test (exit 5)' } : outcome;
    },
  },
  {
    name: `examples/python (pytest, --profile ${PROFILE_RUNS.python})`,
    file: `pytest-${PROFILE_RUNS.python}.xml`,
    note: `pytest-${PROFILE_RUNS.python}-run.xml`,
    missing: missingPytest,
    run: () => {
      const env = pythonEnv(withProfile(PROFILE_RUNS.python));
      const args = ['-m', 'pytest', 'examples/python/test_deposit_flow.py', '-q', '-p', 'no:cacheprovider', `--junitxml=${artifact(`pytest-${PROFILE_RUNS.python}.xml`)}`];
      const outcome = run('python3', args, { env });
      return outcome.status === 5 ? { status: 5, why: 'pytest collected no test (exit 5)' } : outcome;
    },
  },
  {
    name: 'examples/php (PHPUnit)',
    file: 'phpunit.xml',
    note: 'phpunit-run.xml',
    missing: missingPhp,
    run: () => run('phpunit', ['-c', 'examples/php/phpunit.xml', '--log-junit', artifact('phpunit.xml')], { env: sandboxEnv }),
  },
  {
    name: `examples/php (PHPUnit, --profile ${PROFILE_RUNS.php})`,
    file: `phpunit-${PROFILE_RUNS.php}.xml`,
    note: `phpunit-${PROFILE_RUNS.php}-run.xml`,
    missing: missingPhp,
    run: () =>
      run('phpunit', ['-c', 'examples/php/phpunit.xml', '--log-junit', artifact(`phpunit-${PROFILE_RUNS.php}.xml`), 'examples/php/tests/DepositFlowTest.php'], {
        env: withProfile(PROFILE_RUNS.php),
      }),
  },
  {
    name: 'examples/go (go test)',
    file: 'go-test.jsonl',
    note: 'go-test.xml',
    missing: missingGo,
    run: () => {
      // -vet=off: go test's vet step on a fresh machine (CI's) first analyses the standard library
      // the example imports: 17 s of CPU against 3 s for building and running the tests, and it
      // proves nothing about the example against the sandbox. \`go vet ./...\` runs it by hand.
      const outcome = run('go', ['test', '-vet=off', '-json', '-count=1', './...'], { cwd: 'examples/go', env: goEnv, stdoutFile: artifact('go-test.jsonl') });
      if (outcome.status !== 0) process.stdout.write(`go test failed; its events are in ${artifact('go-test.jsonl')}\n`);
      return outcome;
    },
  },
  {
    name: `examples/go (go test, --profile ${PROFILE_RUNS.go})`,
    file: `go-test-${PROFILE_RUNS.go}.jsonl`,
    note: `go-test-${PROFILE_RUNS.go}.xml`,
    missing: missingGo,
    run: () => {
      const file = artifact(`go-test-${PROFILE_RUNS.go}.jsonl`);
      const outcome = run('go', ['test', '-vet=off', '-json', '-count=1', '-run', GO_FLOW_TESTS, '.'], {
        cwd: 'examples/go',
        env: { ...goEnv, DEPOSIT_SANDBOX_PROFILE: PROFILE_RUNS.go },
        stdoutFile: file,
      });
      if (outcome.status !== 0) process.stdout.write(`go test failed; its events are in ${file}\n`);
      return outcome;
    },
  },
  {
    name: 'examples/workspaces/vitest (vitest threads, one workspace per worker)',
    file: 'workspaces-vitest.json',
    note: 'workspaces-vitest-run.xml',
    missing: () => undefined,
    run: () =>
      run(process.execPath, [
        join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
        'run',
        '--config',
        'scripts/lib/workspaces-vitest.config.mjs',
        '--reporter=default',
        '--reporter=json',
        `--outputFile=${artifact('workspaces-vitest.json')}`,
      ]),
  },
  {
    name: 'examples/workspaces/python (pytest -n 4, one workspace per worker)',
    file: 'pytest-workspaces.xml',
    note: 'pytest-workspaces-run.xml',
    missing: () => (xdistPython() ? undefined : `python3 with pytest and pytest-xdist is missing (${APT} python3-pytest python3-pytest-xdist)`),
    run: async () => {
      let sandbox;
      try {
        sandbox = await startSandboxProcess(['--clock', 'manual', '--in-memory']);
      } catch (error) {
        return { status: 1, why: error.message };
      }
      try {
        const env = { ...process.env, PYTHONDONTWRITEBYTECODE: '1', DEPOSIT_SANDBOX_URL: sandbox.url };
        const args = ['-m', 'pytest', 'examples/workspaces/python', '-n', '4', '-q', '-p', 'no:cacheprovider', `--junitxml=${artifact('pytest-workspaces.xml')}`];
        const outcome = await runAsync(xdistPython(), args, { env });
        return outcome.status === 5 ? { status: 5, why: 'pytest collected no test (exit 5)' } : outcome;
      } finally {
        await sandbox.stop();
      }
    },
  },
];
const only = process.argv[2];
const suites = only ? allSuites.filter((suite) => suite.name.includes(only)) : allSuites;

let failed = false;
for (const suite of suites) {
  process.stdout.write(`\n--- ${suite.name}\n`);
  const missing = suite.missing();
  const { note } = suite;
  for (const old of [suite.file, note]) rmSync(artifact(old), { force: true });
  if (missing) {
    writeNote(note, suite.name, CI ? 'failure' : 'skipped', missing);
    process.stdout.write(CI ? `FAILED: ${missing}; with CI=true every example suite must run.\n` : `skipped: ${missing}. With CI=true this is a failure.\n`);
    failed ||= CI;
    continue;
  }
  const started = performance.now();
  const cpuBefore = endedChildrenCpu();
  const outcome = await suite.run();
  // The CPU of the processes the suite started (its runner, the sandboxes and receivers under it).
  const cpuAfter = endedChildrenCpu();
  const cpu = cpuBefore === undefined || cpuAfter === undefined ? '' : `, CPU ${(cpuAfter - cpuBefore).toFixed(1)} s`;
  ensureReported(suite.file, note, suite.name, outcome);
  process.stdout.write(`${suite.name}: ${outcome.status === 0 ? 'passed' : `FAILED (${outcome.why})`} in ${((performance.now() - started) / 1000).toFixed(1)} s${cpu}\n`);
  failed ||= outcome.status !== 0;
}
process.exitCode = failed ? 1 : 0;
