/**
 * `deposit-sandbox health` as a container's HEALTHCHECK runs it: a real sandbox process on
 * port 0, the command as a second process. Runs the build in dist/ (`npm run build` first).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/deposit-sandbox.js', import.meta.url));
const children: ChildProcessWithoutNullStreams[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** The environment without any DEPOSIT_SANDBOX_* or PORT of the test runner, plus `extra`. */
function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DEPOSIT_SANDBOX_') && name !== 'PORT')), ...extra };
}

function spawnCli(args: string[], extra: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, ...args], { env: env(extra), stdio: 'pipe' });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

async function health(args: string[], extra: Record<string, string> = {}) {
  const run = spawnCli(['health', ...args], extra);
  return { code: await run.exited, stdout: run.stdout(), stderr: run.stderr() };
}

async function startSandbox() {
  const run = spawnCli(['--port', '0', '--in-memory']);
  const url = await new Promise<string>((resolve, reject) => {
    run.child.stdout.on('data', () => {
      const match = /^deposit-sandbox listening on (\S+)\n/.exec(run.stdout());
      if (match) resolve(match[1]!);
    });
    void run.exited.then((code) => reject(new Error(`the sandbox exited (${code}) before its ready line: ${run.stderr()}`)));
  });
  return { ...run, url, port: new URL(url).port };
}

describe('deposit-sandbox health', () => {
  it('exits 0 for a running sandbox, found by --url or by the host and port serve reads from the environment', async () => {
    const sandbox = await startSandbox();

    const byUrl = await health(['--url', sandbox.url]);
    expect(byUrl).toMatchObject({ code: 0, stdout: `healthy: ${sandbox.url}\n` });

    // A container sets DEPOSIT_SANDBOX_HOST=0.0.0.0: the check goes through loopback.
    const byEnv = await health([], { DEPOSIT_SANDBOX_HOST: '0.0.0.0', DEPOSIT_SANDBOX_PORT: sandbox.port });
    expect(byEnv).toMatchObject({ code: 0, stdout: `healthy: http://127.0.0.1:${sandbox.port}\n` });
    const byPort = await health([], { PORT: sandbox.port });
    expect(byPort.code).toBe(0);

    sandbox.child.kill('SIGTERM');
    expect(await sandbox.exited).toBe(0);

    const gone = await health([], { DEPOSIT_SANDBOX_PORT: sandbox.port });
    expect(gone.code).toBe(1);
    expect(gone.stdout).toBe('');
    expect(gone.stderr).toContain(`http://127.0.0.1:${sandbox.port} is not healthy: Could not reach the sandbox`);
  });

  it('is listed in the help, and its own help says where the address comes from', async () => {
    const top = spawnCli(['--help']);
    expect(await top.exited).toBe(0);
    expect(top.stdout()).toContain('health [options]');
    const help = await health(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: deposit-sandbox health');
    expect(help.stdout).toContain('DEPOSIT_SANDBOX_HOST');
    expect(help.stdout).toContain('Examples:');
  });

  it('explains a bad --url or --timeout and exits 1', async () => {
    const badUrl = await health(['--url', 'ftp://example']);
    expect(badUrl.code).toBe(1);
    expect(badUrl.stderr).toContain('--url must be an http(s) URL');

    const badTimeout = await health(['--timeout', 'soon']);
    expect(badTimeout.code).toBe(1);
    expect(badTimeout.stderr).toContain('--timeout must be a whole number of milliseconds');
  });
});
