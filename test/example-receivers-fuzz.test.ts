/**
 * The Python, PHP and Go example receivers (examples/python/receiver_with_probe.py,
 * examples/php/public/receiver-with-probe.php, examples/go/cmd/receiver-with-probe), each run as
 * its own process on 127.0.0.1 with a balance probe over its own ledger, pass
 * `deposit-sandbox check-callback --probe --runs 50 --seed 1`: schedules that include deliveries
 * sent at the same moment and retries overlapping a timed-out attempt. The same command flags
 * examples/receivers/check-then-insert.mjs with the race cause, so these 50 schedules do meet
 * overlap. The build in dist/ (`npm run build` before this file alone). A missing toolchain
 * skips its language with a message, except with CI=true, where it fails.
 */
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { it, test } from './temp-folder.js';
import { CI, env, exampleReceivers, has, LISTENING, ROOT, run } from './example-receivers.js';

const BIN = join(ROOT, 'bin', 'deposit-sandbox.js');
const FUZZ = ['--runs', '50', '--seed', '1'];
const RACE = 'twice when two deliveries of one event overlapped: the receiver checks and then writes without a unique key or a lock';

/** The file's temporary folder, for the receivers' files (the fixture removes it after the file's tests). */
let root: string;
test.beforeAll(({ fileFolder }) => {
  root = fileFolder;
});
const receivers = exampleReceivers(() => root);
const { start } = receivers;
const LANGUAGES = receivers.languages;
afterEach(receivers.stop);

const fuzz = (port: number) =>
  run(process.execPath, [BIN, 'check-callback', `http://127.0.0.1:${port}/callback`, '--probe', `http://127.0.0.1:${port}/probe`, ...FUZZ], { cwd: ROOT, env, timeout: 90_000 });

describe('the example receivers under the callback fuzzer with overlap', () => {
  it('the same fuzzer settings flag the check-then-insert receiver with the race cause', { timeout: 120_000 }, async () => {
    const port = await start(process.execPath, [join(ROOT, 'examples', 'receivers', 'check-then-insert.mjs')], { cwd: ROOT, env: { PORT: '0' } }, LISTENING);
    const result = await fuzz(port);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(RACE);
  });

  it.for(LANGUAGES)('%s: passes check-callback --probe --runs 50 --seed 1', { timeout: 240_000 }, async ([language, command, launch], { skip }) => {
    if (!has(command)) {
      if (CI) throw new Error(`${command} is missing, and CI=true: install it (see .ci/run)`);
      skip(`the ${language} example receiver needs ${command}, which is not installed`);
    }
    const port = await launch();
    const result = await fuzz(port);
    expect(result.stderr).toBe('');
    expect(result.stdout).not.toContain(RACE);
    expect(result.stdout).toContain('No violation in 50 schedules.');
    expect(result.code).toBe(0);
  });
});
