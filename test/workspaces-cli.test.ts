/**
 * The workspace flags of `deposit-sandbox serve` in a real process: --max-workspaces and
 * --workspace-ttl (a tiny one, whose log line the test waits for), and a bad value.
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

/** Starts `deposit-sandbox <flags>` and resolves with its URL and a wait for a text in its stdout (an event, not polling). */
async function serve(flags: string[]): Promise<{ url: string; printed: (text: string) => Promise<string> }> {
  const child = spawn(process.execPath, [BIN, '--port', '0', '--in-memory', ...flags], { stdio: 'pipe' });
  children.push(child);
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const printed = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const look = () => {
        if (!out.includes(text)) return;
        child.stdout.off('data', look);
        resolve(out);
      };
      child.stdout.on('data', look);
      child.once('close', () => reject(new Error(`exited without printing ${JSON.stringify(text)}: ${out}`)));
      look();
    });
  await printed('\n');
  const match = /^deposit-sandbox listening on (\S+)\n/.exec(out);
  if (!match?.[1]) throw new Error(`not the ready line: ${out}`);
  return { url: match[1], printed };
}

describe('serve --workspace-ttl and --max-workspaces', () => {
  it('refuses a new workspace past the limit', async () => {
    const { url, printed } = await serve(['--max-workspaces', '1']);
    expect((await fetch(`${url}/w/first/_sandbox/clock`)).status).toBe(200);
    // The workspace logs through the same logger as the default sandbox: its scenario line, with its name.
    const created = await fetch(`${url}/w/first/api/v1/trades/deposit/create`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Auth': 'sandbox-token-demo' },
      body: JSON.stringify({ merchant: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51', order: 'sbx-confirm-cli', amount_cents: 100, amount_currency: 'RUB', type: 'nspk' }),
    });
    expect(created.status).toBe(201);
    await printed('deposit-sandbox: workspace "first": scenario "confirm" took nspk order "sbx-confirm-cli"');
    const refused = await fetch(`${url}/w/second/_sandbox/clock`);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('--max-workspaces 1');
  });

  it('expires an idle workspace with a log line, which frees its place', async () => {
    // A tiny TTL, and the test waits for the log line itself: no fixed wait on real time.
    const { url, printed } = await serve(['--workspace-ttl', '100ms', '--max-workspaces', '1']);
    expect((await fetch(`${url}/w/first/_sandbox/clock`)).status).toBe(200);
    const out = await printed('workspace "first" expired');
    expect(out).toMatch(/deposit-sandbox: workspace "first" expired: unused for \d+(ms|s) \(--workspace-ttl 100ms, last used [^)]+\); its data was removed/);
    expect((await fetch(`${url}/w/second/_sandbox/clock`)).status).toBe(200);
  });

  it('exits 1 naming the flag for a bad value', () => {
    const result = spawnSync(process.execPath, [BIN, '--port', '0', '--in-memory', '--max-workspaces', '0'], { encoding: 'utf8', timeout: 60_000 });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('--max-workspaces');
    expect(result.stderr).toContain('must be 1 or more');
  });
});
