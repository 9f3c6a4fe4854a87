/**
 * Security of the real process (the build in dist/: `npm test` builds first; run
 * `npm run build` before running this file alone): the warning when bound to a non-loopback
 * host without an admin token, and no credential in anything it prints. Traffic only to
 * 127.0.0.1, even when the sandbox binds 0.0.0.0.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver } from './callbacks-receiver.js';
import { DEMO, SECOND, p2pBody, signatureOf } from './support.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'deposit-sandbox.js');
const ADMIN = 'cli-admin-token-5e8a';

interface Run {
  child: ChildProcessWithoutNullStreams;
  output: () => { stdout: string; stderr: string };
  exited: Promise<number | null>;
  /** http://127.0.0.1:<port>, whatever host it binds. */
  url: string;
  ready: string;
}

const children: ChildProcessWithoutNullStreams[] = [];
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function start(args: string[], extraEnv: Record<string, string> = {}): Promise<Run> {
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DEPOSIT_SANDBOX_') && name !== 'PORT' && name !== 'container')), ...extraEnv };
  const child = spawn(process.execPath, [BIN, '--port', '0', '--in-memory', ...args], { cwd: ROOT, env, stdio: 'pipe' });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  const ready = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const line = stdout.split('\n')[0];
      if (stdout.includes('\n') && line !== undefined) resolve(line);
    };
    child.stdout.on('data', check);
    void exited.then((code) => reject(new Error(`exited (${code}) before its ready line:\n${stdout}\n${stderr}`)));
  });
  const port = /:(\d+)$/.exec(ready)?.[1];
  expect(port, ready).toBeDefined();
  return { child, output: () => ({ stdout, stderr }), exited, url: `http://127.0.0.1:${port}`, ready };
}

async function stop(run: Run): Promise<number | null> {
  run.child.kill('SIGTERM');
  return run.exited;
}

const fetchJson = (url: string, init: RequestInit = {}) => fetch(url, { ...init, signal: AbortSignal.timeout(5_000) });

describe('binding a non-loopback host', () => {
  it('without --admin-token prints a loud warning on stderr (and still serves)', async () => {
    // Not in a container, whatever this machine is (DEPOSIT_SANDBOX_IN_CONTAINER=0 decides over /.dockerenv).
    const run = await start(['--host', '0.0.0.0'], { DEPOSIT_SANDBOX_IN_CONTAINER: '0' });
    expect(run.ready).toMatch(/^deposit-sandbox listening on http:\/\/0\.0\.0\.0:\d+$/);
    expect((await fetchJson(`${run.url}/_sandbox/health`)).status).toBe(200);
    expect(await stop(run)).toBe(0); // all output read once it has exited
    const { stderr } = run.output();
    expect(stderr).toContain('WARNING: deposit-sandbox listens on 0.0.0.0');
    expect(stderr).toContain('--admin-token');
    expect(stderr).toMatch(/reset the sandbox/);
    expect(stderr).toContain('which other machines can reach');
    expect(stderr).toContain('--host 127.0.0.1');
  });

  it('inside a container (the container variable podman sets), the warning does not advise --host 127.0.0.1', async () => {
    const run = await start(['--host', '0.0.0.0'], { container: 'podman' });
    const port = new URL(run.url).port;
    expect(await stop(run)).toBe(0);
    const { stderr } = run.output();
    expect(stderr).toContain('WARNING: deposit-sandbox listens on 0.0.0.0');
    expect(stderr).toContain(`-p 127.0.0.1:${port}:${port}`);
    expect(stderr).not.toContain('--host 127.0.0.1');
  });

  it('in the image (DEPOSIT_SANDBOX_IN_CONTAINER=1), the warning says the port may be published on loopback only, which it cannot see, and how to tell', async () => {
    const run = await start(['--host', '0.0.0.0'], { DEPOSIT_SANDBOX_IN_CONTAINER: '1' });
    const port = new URL(run.url).port;
    expect(await stop(run)).toBe(0);
    const { stderr } = run.output();
    expect(stderr).toContain('WARNING: deposit-sandbox listens on 0.0.0.0 in its container');
    expect(stderr).toContain(`The sandbox cannot see how the port is\n!! published: on loopback only (-p 127.0.0.1:${port}:${port}), only this machine\n!! reaches it and you can ignore this`);
    expect(stderr).not.toContain('which other machines can reach');
  });

  it('with --admin-token there is no warning, and the admin API wants the token', async () => {
    const run = await start(['--host', '0.0.0.0', '--admin-token', ADMIN]);
    expect((await fetchJson(`${run.url}/_sandbox/trades`)).status).toBe(401);
    expect((await fetchJson(`${run.url}/_sandbox/trades`, { headers: { Authorization: `Bearer ${ADMIN}` } })).status).toBe(200);
    expect(await stop(run)).toBe(0);
    expect(run.output().stderr).toBe('');
  });

  it('on the default loopback host there is no warning', async () => {
    const run = await start([]);
    expect(await stop(run)).toBe(0);
    expect(run.output().stderr).toBe('');
  });
});

describe('what the process prints', () => {
  it('never holds a token, a secret or the admin token', async () => {
    const receiver = await startReceiver((_q, res) => void res.writeHead(500).end(`nope ${'x'.repeat(2000)}`));
    cleanups.push(() => receiver.close());
    const run = await start(['--admin-token', ADMIN, '--callback-timeout', '500ms', '--callback-retries', '50ms,50ms']);
    const create = (body: Record<string, unknown>, auth: string) =>
      fetchJson(`${run.url}/api/v1/trades/deposit/create`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': auth }, body: JSON.stringify(body) });
    const body = p2pBody({ callback_url: `${receiver.url}/cb` });
    for (const auth of ['', 'garbage', SECOND.token, DEMO.secret, SECOND.secret, signatureOf('create', body, SECOND.secret)]) await create(body, auth);
    const created = await create(body, signatureOf('create', body));
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await fetchJson(`${run.url}/api/v1/trades/${DEMO.id}/${id}`, { headers: { 'X-Token': SECOND.token } });
    await fetchJson(`${run.url}/_sandbox/trades/${id}/transition`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer wrong' }, body: '{"state":"confirmed"}' });
    const moved = await fetchJson(`${run.url}/_sandbox/trades/${id}/transition`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${ADMIN}` },
      body: '{"state":"confirmed"}',
    });
    expect(moved.status).toBe(200);
    await receiver.waitFor(3); // the callback and its two retries, all refused with 500
    await fetchJson(`${run.url}/_sandbox/check-callback`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${ADMIN}` },
      body: JSON.stringify({ url: `${receiver.url}/check` }),
    });
    expect(await stop(run)).toBe(0);
    const { stdout, stderr } = run.output();
    expect(stdout).toContain(`merchant: Demo Shop ${DEMO.id}`);
    // Names the file that holds the token and secret instead of printing them.
    expect(stdout).toContain(`(token and secret: in ${join(ROOT, 'fixtures', 'merchants.json')})`);
    for (const secret of [DEMO.token, SECOND.token, DEMO.secret, SECOND.secret, ADMIN]) {
      expect(stdout, `stdout holds ${secret}`).not.toContain(secret);
      expect(stderr, `stderr holds ${secret}`).not.toContain(secret);
    }
  });
});
