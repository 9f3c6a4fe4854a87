/**
 * The workspace flags of `deposit-sandbox serve` in a real process: --max-workspaces and
 * --workspace-ttl (a tiny one, watched with bounded polling), and a bad value.
 * Runs the build in dist/ (run `npm run build` before running this file alone).
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/deposit-sandbox.js', import.meta.url));
const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

describe('serve --workspace-ttl and --max-workspaces', () => {
  it('refuses a new workspace past the limit, and expires an idle one with a log line', async () => {
    const child = spawn(process.execPath, [BIN, '--port', '0', '--in-memory', '--workspace-ttl', '2s', '--max-workspaces', '1'], { stdio: 'pipe' });
    children.push(child);
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ready line: ${out}`)), 15_000);
      child.stdout.on('data', () => {
        const match = /^deposit-sandbox listening on (\S+)\n/.exec(out);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    expect((await fetch(`${url}/w/first/_sandbox/clock`)).status).toBe(200);
    // The workspace logs through the same logger as the default sandbox: its scenario line, with its name.
    const created = await fetch(`${url}/w/first/api/v1/trades/deposit/create`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Auth': 'sandbox-token-demo' },
      body: JSON.stringify({ merchant: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51', order: 'sbx-confirm-cli', amount_cents: 100, amount_currency: 'RUB', type: 'nspk' }),
    });
    expect(created.status).toBe(201);
    expect(out).toContain('deposit-sandbox: workspace "first": scenario "confirm" took nspk order "sbx-confirm-cli"');
    const refused = await fetch(`${url}/w/second/_sandbox/clock`);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('--max-workspaces 1');
    // Bounded polling: the sweep runs every 2 s; give it up to 15 s on a busy machine.
    const deadline = Date.now() + 15_000;
    while (!out.includes('workspace "first" expired') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(out).toMatch(/deposit-sandbox: workspace "first" expired: unused for \d+(ms|s) \(--workspace-ttl 2s, last used [^)]+\); its data was removed/);
    expect((await fetch(`${url}/w/second/_sandbox/clock`)).status).toBe(200);
    child.kill('SIGTERM');
  }, 30_000);

  it('exits 1 naming the flag for a bad value', () => {
    const result = spawnSync(process.execPath, [BIN, '--port', '0', '--in-memory', '--max-workspaces', '0'], { encoding: 'utf8', timeout: 15_000 });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('--max-workspaces');
    expect(result.stderr).toContain('must be 1 or more');
  });
});
