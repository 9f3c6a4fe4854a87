/**
 * `deposit-sandbox trigger` as QA runs it: a real sandbox process on port 0 and the CLI as a
 * second process, real HTTP on 127.0.0.1. Runs the build in dist/ (`npm test` builds first;
 * run `npm run build` before running this file alone).
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from './callbacks-receiver.js';
import { DEMO, p2pBody } from './support.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'deposit-sandbox.js');
const TOKEN = 'qa-admin-token';

/** The environment without any DEPOSIT_SANDBOX_* or PORT the runner may have. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DEPOSIT_SANDBOX_') && name !== 'PORT'));
  return { ...env, ...extra };
}

/** Runs the CLI to completion (bounded) and answers its exit code and output. */
function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // A bound for a hang, under the test's own (a CLI run has taken over a minute on a loaded machine).
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, env: cleanEnv(env), timeout: 170_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr: error?.killed ? `${stderr}\n(killed: still running after 170 s)` : stderr });
    });
  });
}

let sandbox: ChildProcessWithoutNullStreams;
let url: string;

beforeAll(async () => {
  sandbox = spawn(process.execPath, [BIN, '--port', '0', '--in-memory', '--admin-token', TOKEN], { cwd: ROOT, env: cleanEnv(), stdio: 'pipe' });
  let out = '';
  url = await new Promise<string>((resolve, reject) => {
    sandbox.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const line = out.split('\n')[0]!;
      if (out.includes('\n')) {
        const match = /^deposit-sandbox listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
        if (match) resolve(match[1]!);
        else reject(new Error(`unexpected first line: ${line}`));
      }
    });
    sandbox.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before its ready line`)));
  });
});

afterAll(async () => {
  if (sandbox.exitCode === null && sandbox.signalCode === null) {
    const exited = new Promise((resolve) => sandbox.once('exit', resolve));
    sandbox.kill('SIGTERM');
    await exited;
  }
});

async function createTrade(): Promise<string> {
  const res = await fetch(`${url}/api/v1/trades/deposit/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token },
    body: JSON.stringify(p2pBody()),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe('deposit-sandbox trigger', () => {
  it('moves a trade through the admin API and prints the result', async () => {
    const id = await createTrade();
    const result = await cli(['trigger', id, 'confirmed', '--url', url, '--admin-token', TOKEN, '--note', 'from the terminal']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Trade ${id} is now confirmed (a final state).`);
    expect(result.stdout).toContain('312.50 RUB');

    const detail = await fetch(`${url}/_sandbox/trades/${id}`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    const { history } = (await detail.json()) as { history: Array<{ to: string; cause: string; note?: string }> };
    expect(history.at(-1)).toMatchObject({ to: 'confirmed', cause: 'admin', note: 'from the terminal' });
  });

  it('reads the URL and the admin token from the environment, and prints JSON on request', async () => {
    const id = await createTrade();
    const result = await cli(['trigger', id, 'canceled', '--json'], { DEPOSIT_SANDBOX_URL: url, DEPOSIT_SANDBOX_ADMIN_TOKEN: TOKEN });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ trade: { id, state: 'canceled', allowed: [] } });
  });

  it('prints the error message and exits 1 when the move is not allowed, the state unknown or the trade missing', async () => {
    const id = await createTrade();
    await cli(['trigger', id, 'expired', '--url', url, '--admin-token', TOKEN]);
    const final = await cli(['trigger', id, 'confirmed', '--url', url, '--admin-token', TOKEN]);
    expect(final.code).toBe(1);
    expect(final.stdout).toBe('');
    expect(final.stderr).toMatch(
      /^deposit-sandbox: Trade .* is expired, a final state: it cannot move to confirmed\. \(allowed now: none, the state is final\)\n {2}sandbox: http:\/\/127\.0\.0\.1:\d+ \(from --url\)\n$/,
    );

    const unknown = await cli(['trigger', await createTrade(), 'paid', '--url', url, '--admin-token', TOKEN]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('created, ecom, confirmed, canceled, expired');

    const missing = await cli(['trigger', '3f0c9a52-0d8e-4b4f-9a57-6f2b8f1f3c11', 'confirmed', '--url', url, '--admin-token', TOKEN]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No trade with id');
    expect(missing.stderr).toContain(`sandbox: ${url} (from --url)`);
  });

  it('says how to pass the admin token when it is missing', async () => {
    const result = await cli(['trigger', await createTrade(), 'confirmed', '--url', url]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Authorization: Bearer <token>');
  });

  it('says when no sandbox answers at the URL', async () => {
    const port = await closedPort();
    const result = await cli(['trigger', 'any-id', 'confirmed', '--url', `http://127.0.0.1:${port}`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Could not reach the sandbox at http://127.0.0.1:${port} (ECONNREFUSED)`);
  });
});

describe('serve flags for callbacks and the admin token', () => {
  it('reads --callback-timeout and --callback-retries (and their env fallbacks) and names a bad value', async () => {
    const flag = await cli(['--port', '0', '--in-memory', '--callback-retries', '1s,soon']);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain('--callback-retries: "soon" is not a duration');
    const env = await cli(['--port', '0', '--in-memory'], { DEPOSIT_SANDBOX_CALLBACK_TIMEOUT: '0' });
    expect(env.code).toBe(1);
    // A value from the environment is reported under the variable's name, not the flag's.
    expect(env.stderr).toContain('DEPOSIT_SANDBOX_CALLBACK_TIMEOUT: must be longer than 0');
  });

  it('lists the flags in serve --help and trigger --help', async () => {
    const serve = await cli(['serve', '--help']);
    for (const flag of ['--admin-token <token>', '--callback-timeout <duration>', '--callback-retries <list>']) expect(serve.stdout).toContain(flag);
    const trigger = await cli(['trigger', '--help']);
    expect(trigger.stdout).toContain('Usage: deposit-sandbox trigger [options] <trade-id> <state> | <state> --order <order> [--merchant <id>]');
    expect(trigger.stdout).toContain('--url <url>');
  });
});
