/**
 * `deposit-sandbox go-live` as a real process (the build in dist/: run `npm run build` before this
 * file alone): its exit codes, which are what a CI step reads. The checklist itself is tested in
 * test/in-process/go-live.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../src/index.js';
import { CLOSED_PORT } from './callbacks-receiver.js';
import { runCli } from './sandbox-process.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

describe('deposit-sandbox go-live exit codes', () => {
  it('1 while a row is not met, with the checklist on stdout', async () => {
    const run = await runCli(['go-live', '--url', sandbox.url]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('0 met, 15 not met, 0 wrong: not ready yet.\n');
  });

  it('2 when it cannot ask: no sandbox at the address, or --probe without --receiver', async () => {
    const away = await runCli(['go-live', '--url', `http://127.0.0.1:${CLOSED_PORT}`]);
    expect(away.code).toBe(2);
    expect(away.stderr).toContain(`deposit-sandbox: Could not reach the sandbox at http://127.0.0.1:${CLOSED_PORT}`);
    const alone = await runCli(['go-live', '--url', sandbox.url, '--probe', 'http://127.0.0.1:3000/probe']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--probe is read by the fuzzer go-live runs on your receiver: give --receiver <url> with it');
  });
});
