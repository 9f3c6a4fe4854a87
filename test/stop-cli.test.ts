import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { killAll, runCli, startProcess } from './sandbox-process.js';
import { it } from './temp-folder.js';

// `deposit-sandbox stop` as a script uses it: it returns only once the sandbox's process is gone
// and its data folder is free, so the next step can start a sandbox on the same folder and port.

afterEach(() => killAll());

describe('deposit-sandbox stop', () => {
  it('through the ready file: exit 0 once the process is gone and the folder free; a new sandbox then starts on both', async ({ folder }) => {
    const data = join(folder, 'data');
    const ready = join(folder, 'sandbox.json');
    const first = await startProcess(['--port', '0', '--data', data, '--ready-file', ready]);
    const stopped = await runCli(['stop', '--ready-file', ready]);
    expect(stopped.stderr).toBe('');
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toMatch(new RegExp(`^Stopped the sandbox at ${first.url} \\(process ${first.child.pid}\\) in .+; ${data} is free\\.\\n$`));
    // Gone by the time stop returned: the lock file, and the process (a new one takes its port and folder at once).
    expect(existsSync(join(data, 'lock.json'))).toBe(false);
    const second = await startProcess(['--port', String(first.port), '--data', data]);
    expect(second.url).toBe(first.url);
    expect(await first.exited).toBe(0);
  });

  it('through --url: a sandbox on this machine with a data folder is found by its lock file', async ({ folder }) => {
    const data = join(folder, 'data');
    const proc = await startProcess(['--port', '0', '--data', data]);
    const stopped = await runCli(['stop', '--url', proc.url]);
    expect(stopped.code).toBe(0);
    expect(await proc.exited).toBe(0);
  });

  it('refuses a sandbox whose process it cannot tell (in memory, through --url) and names the ways that work', async () => {
    const proc = await startProcess(['--port', '0', '--in-memory']);
    const refused = await runCli(['stop', '--url', proc.url]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Stop it with --ready-file');
    expect(proc.child.exitCode).toBeNull();
  });

  it('says there is nothing to stop when the ready file is missing', async ({ folder }) => {
    const refused = await runCli(['stop', '--ready-file', join(folder, 'none.json')]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Nothing to stop: the ready file');
  });
});
