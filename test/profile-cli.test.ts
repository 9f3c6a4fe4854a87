import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { killAll, runCli, startProcess, stopProcess } from './sandbox-process.js';
import { it } from './temp-folder.js';

// `serve --profile` as a process: what it prints, how a bad profile stops it (exit 2, the file's
// line and column, the key, what is allowed), and the environment variable.

afterEach(() => killAll());

describe('serve --profile', () => {
  it("names the profile in the start-up lines and, under Standard Webhooks, the bundled merchants' signing keys", async () => {
    const proc = await startProcess(['--port', '0', '--in-memory'], { DEPOSIT_SANDBOX_PROFILE: 'standard-webhooks' });
    await expect.poll(() => proc.stdout()).toContain('webhook key of Second Shop');
    expect(proc.stdout()).toContain('  profile:  standard-webhooks: requests HMAC-SHA256, hex in X-Auth / X-Token; callbacks Standard Webhooks, acknowledged by code-zero');
    expect(proc.stdout()).toContain('  webhook key of Demo Shop: whsec_c2FuZGJveC1zZWNyZXQtZGVtbw==');
    const profile = (await (await fetch(`${proc.url}/_sandbox/profile`)).json()) as { source: string; profile: { name: string } };
    expect(profile).toMatchObject({ source: 'server', profile: { name: 'standard-webhooks' } });
    expect(await stopProcess(proc)).toBe(0);
  });

  it('stops with exit 2 and file:line:column for an invalid profile file, and lists the built-ins for an unknown name', async ({ folder }) => {
    const file = join(folder, 'my-provider.yaml');
    writeFileSync(file, 'name: my-provider\nextends: sandbox\ncallbacks:\n  acknowledge: okay\n');
    const bad = await runCli(['--port', '0', '--in-memory', '--profile', file]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${file}:4:16: callbacks.acknowledge: must be what acknowledges a callback: 2xx | ok-text | code-zero; got "okay"`);
    expect(bad.stdout).not.toContain('listening');

    const unknown = await runCli(['--port', '0', '--in-memory', '--profile', 'md5']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('The built-ins: sandbox, sha256-secret-last, hmac-sha512-base64, md5-colon, standard-webhooks, strict');
  });
});
