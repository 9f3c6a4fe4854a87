/**
 * The CLI as a user runs it: a real process on port 0, real HTTP on 127.0.0.1.
 * It runs the build in dist/ (`npm test` builds first; run `npm run build` before
 * running this file alone).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect } from 'vitest';
import { it } from './temp-folder.js';
import { DEMO, TRADE_KEYS } from './support.js';
import { cleanEnv, savedStatuses } from './sandbox-process.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'deposit-sandbox.js');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const READY = /^deposit-sandbox listening on (http:\/\/127\.0\.0\.1:(\d+))$/;

interface Run {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

const children: ChildProcessWithoutNullStreams[] = [];

afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});

function run(args: string[], env: Record<string, string> = {}, cwd = ROOT): Run {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: cleanEnv(env), stdio: 'pipe' });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Starts a sandbox and resolves with its URL from the first stdout line. */
async function start(args: string[], env: Record<string, string> = {}): Promise<Run & { url: string; port: number }> {
  const proc = run(args, env);
  const firstLine = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const newline = proc.stdout().indexOf('\n');
      if (newline >= 0) resolve(proc.stdout().slice(0, newline));
    };
    proc.child.stdout.on('data', check);
    void proc.exited.then((code) => reject(new Error(`deposit-sandbox exited (${code}) before its ready line:\n${proc.stdout()}\n${proc.stderr()}`)));
  });
  const match = READY.exec(firstLine);
  expect(match, firstLine).not.toBeNull();
  return { ...proc, url: match![1]!, port: Number(match![2]) };
}

async function stop(proc: Run, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  proc.child.kill(signal);
  return proc.exited;
}

const p2p = (order: string) => ({ merchant: DEMO.id, order, amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank' });

async function createTrade(url: string, body: Record<string, unknown>, headers: Record<string, string> = { 'X-Auth': DEMO.token }) {
  const res = await fetch(`${url}/api/v1/trades/deposit/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function getTrade(url: string, id: string) {
  const res = await fetch(`${url}/api/v1/trades/${DEMO.id}/${id}`, { headers: { 'X-Token': DEMO.token } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function health(url: string) {
  const res = await fetch(`${url}/_sandbox/health`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('deposit-sandbox serve (a real process)', () => {
  it('prints the ready line, serves, stops on SIGTERM with exit 0, and keeps the trade across a restart', async ({ folder: data }) => {
    const first = await start(['--port', '0', '--data', data]);
    expect(first.port).toBeGreaterThan(0);

    const created = await createTrade(first.url, p2p('cli-restart-1'));
    expect(created.status).toBe(201);
    expect(Object.keys(created.body)).toEqual([...TRADE_KEYS]);
    const id = created.body['id'] as string;
    expect((created.body['payment_data'] as Record<string, string>)['url']).toBe(`${first.url}/pay/${id}`);

    expect(await stop(first)).toBe(0);
    expect(first.stdout()).toContain('SIGTERM received');

    const second = await start(['--port', '0', '--data', data]);
    const again = await getTrade(second.url, id);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id, order: 'cli-restart-1', state: 'created', amount_cents: 31250 });
    expect(again.body['payment_data']).toMatchObject({
      name: (created.body['payment_data'] as Record<string, string>)['name'],
      number: (created.body['payment_data'] as Record<string, string>)['number'],
    });
    const duplicate = await createTrade(second.url, p2p('cli-restart-1'));
    expect(duplicate.status).toBe(422);
    expect(await stop(second, 'SIGINT')).toBe(0);
  });

  it('GET /_sandbox/health answers 200', async () => {
    const proc = await start(['--port', '0', '--in-memory']);
    const res = await health(proc.url);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', auth: 'either', store: 'memory' });
    expect(await stop(proc)).toBe(0);
  });

  it('still saves the store and exits 0 when the reader of its stdout went away', async ({ folder: data }) => {
    const proc = await start(['--port', '0', '--data', data]);
    proc.child.stdout.destroy();
    const created = await createTrade(proc.url, p2p('cli-epipe-1'));
    expect(created.status).toBe(201);
    expect(await stop(proc)).toBe(0);
    // Read back by a sandbox on the same folder in this process (the restart test above starts a process on it).
    expect(await savedStatuses(data, [created.body['id'] as string])).toEqual([200]);
  });

  it('--seed makes ids and requisites repeat across two fresh runs', async () => {
    const draw = async () => {
      const proc = await start(['--port', '0', '--in-memory', '--seed', '4242']);
      const a = await createTrade(proc.url, p2p('seed-1'));
      const b = await createTrade(proc.url, { ...p2p('seed-2'), type: 'nspk' });
      expect(await stop(proc)).toBe(0);
      return [a.body, b.body].map((trade) => ({ id: trade['id'], payment_data: { ...(trade['payment_data'] as object), url: undefined } }));
    };
    const first = await draw();
    expect(await draw()).toEqual(first);
  });

  it('--public-url sets the base of payment_data.url', async () => {
    const proc = await start(['--port', '0', '--in-memory', '--public-url', 'https://pay.example.test']);
    const created = await createTrade(proc.url, p2p('public-1'));
    expect((created.body['payment_data'] as Record<string, string>)['url']).toBe(`https://pay.example.test/pay/${created.body['id'] as string}`);
    expect(await stop(proc)).toBe(0);
  });

  it('--auth token refuses a signature; --auth off accepts no header', async () => {
    const token = await start(['--port', '0', '--in-memory', '--auth', 'token']);
    expect((await createTrade(token.url, p2p('auth-1'), { 'X-Auth': 'a'.repeat(64) })).status).toBe(401);
    expect(await stop(token)).toBe(0);
    const off = await start(['--port', '0', '--in-memory', '--auth', 'off']);
    expect((await createTrade(off.url, p2p('auth-2'), {})).status).toBe(201);
    expect(await stop(off)).toBe(0);
  });
});

describe('environment fallbacks', () => {
  it('PORT is used when neither --port nor DEPOSIT_SANDBOX_PORT is set', async () => {
    const proc = await start(['--in-memory'], { PORT: '0' });
    expect(proc.port).not.toBe(4242);
    expect(await stop(proc)).toBe(0);
  });

  it('DEPOSIT_SANDBOX_PORT wins over PORT, and --port wins over both', async () => {
    const env = await start(['--in-memory'], { DEPOSIT_SANDBOX_PORT: '0', PORT: 'not-a-port' });
    expect(await stop(env)).toBe(0);
    const flag = await start(['--in-memory', '--port', '0'], { DEPOSIT_SANDBOX_PORT: 'not-a-port', PORT: 'not-a-port' });
    expect(await stop(flag)).toBe(0);
  });

  it('blank variables (PORT=, DEPOSIT_SANDBOX_SEED=, any DEPOSIT_SANDBOX_*=) count as unset: the defaults apply', async () => {
    const blank = { PORT: '', DEPOSIT_SANDBOX_SEED: '', DEPOSIT_SANDBOX_AUTH: '', DEPOSIT_SANDBOX_MAX_WORKSPACES: '', DEPOSIT_SANDBOX_CALLBACK_TIMEOUT: '', DEPOSIT_SANDBOX_CLOCK: ' ' };
    const proc = await start(['--port', '0', '--in-memory'], blank);
    expect((await health(proc.url)).body['auth']).toBe('either');
    const workspaces = (await (await fetch(`${proc.url}/_sandbox/workspaces`)).json()) as { limit: number };
    expect(workspaces.limit).toBe(1000);
    expect(proc.stderr()).toBe('');
    expect(await stop(proc)).toBe(0);
  });

  it('DEPOSIT_SANDBOX_AUTH sets the auth mode', async () => {
    const proc = await start(['--port', '0', '--in-memory'], { DEPOSIT_SANDBOX_AUTH: 'signature' });
    expect((await health(proc.url)).body['auth']).toBe('signature');
    expect((await createTrade(proc.url, p2p('env-auth-1'))).status).toBe(401);
    expect(await stop(proc)).toBe(0);
  });

  it('DEPOSIT_SANDBOX_IN_MEMORY=1 keeps nothing on disk; =0 means off', async ({ folder: data }) => {
    const on = await start(['--port', '0', '--data', data], { DEPOSIT_SANDBOX_IN_MEMORY: '1' });
    expect((await health(on.url)).body['store']).toBe('memory');
    expect(await stop(on)).toBe(0);
    const off = await start(['--port', '0', '--data', data], { DEPOSIT_SANDBOX_IN_MEMORY: '0' });
    expect((await health(off.url)).body['store']).toBe(join(data, 'db.json'));
    expect(await stop(off)).toBe(0);
  });

  it('DEPOSIT_SANDBOX_DATA sets the store folder', async ({ folder: data }) => {
    const proc = await start(['--port', '0'], { DEPOSIT_SANDBOX_DATA: data });
    expect((await health(proc.url)).body['store']).toBe(join(data, 'db.json'));
    expect(await stop(proc)).toBe(0);
  });
});

describe('help, version and bad input', () => {
  it('--help shows the examples and where the flags are; serve --help lists every flag with its env name', async () => {
    const top = run(['--help']);
    expect(await top.exited).toBe(0);
    expect(top.stdout()).toContain('Examples:');
    expect(top.stdout()).toContain('deposit-sandbox --port 0 --in-memory');
    expect(top.stdout()).toContain('deposit-sandbox serve --help');

    const serve = run(['serve', '--help']);
    expect(await serve.exited).toBe(0);
    for (const flag of ['--port', '--host', '--data', '--in-memory', '--fixtures', '--public-url', '--auth', '--seed']) expect(serve.stdout()).toContain(flag);
    for (const name of ['DEPOSIT_SANDBOX_PORT', 'DEPOSIT_SANDBOX_AUTH', 'PORT too']) expect(serve.stdout()).toContain(name);
    expect(serve.stdout()).toContain('Examples:');
  });

  it("--version prints package.json's version", async () => {
    for (const flag of ['--version', '-v']) {
      const proc = run([flag]);
      expect(await proc.exited).toBe(0);
      expect(proc.stdout().trim()).toBe(VERSION);
    }
  });

  it('--auth nope fails with the allowed choices', async () => {
    const proc = run(['--auth', 'nope', '--in-memory', '--port', '0']);
    expect(await proc.exited).not.toBe(0);
    expect(proc.stderr()).toContain("argument 'nope' is invalid. Allowed choices are token, signature, either, off");
  });

  it('DEPOSIT_SANDBOX_AUTH=nope fails naming the variable', async () => {
    const proc = run(['--in-memory', '--port', '0'], { DEPOSIT_SANDBOX_AUTH: 'nope' });
    expect(await proc.exited).not.toBe(0);
    expect(proc.stderr()).toContain("from env 'DEPOSIT_SANDBOX_AUTH' is invalid");
  });

  // Start-up checks every value before it stops, so one process shows several (each row a process).
  it.each([
    [
      ['--port', 'abc', '--seed', 'abc', '--public-url', 'localhost:8080'],
      ['--port: must be a port number from 0 to 65535 (0 picks a free port)', '--seed: must be a whole number', '--public-url: must be an absolute http(s) URL'],
    ],
    [['--port', '70000'], ['--port: must be from 0 to 65535']],
  ])('%j fails clearly, naming each bad value', async (args, messages) => {
    const proc = run([...args, '--in-memory']);
    expect(await proc.exited).toBe(1);
    expect(proc.stderr()).toContain('deposit-sandbox: Invalid options:');
    for (const message of messages) expect(proc.stderr()).toContain(message);
    expect(proc.stdout()).not.toContain('listening');
  });

  it('an unknown flag fails and points at --help', async () => {
    const proc = run(['--prot', '0']);
    expect(await proc.exited).not.toBe(0);
    expect(proc.stderr()).toContain("unknown option '--prot'");
    expect(proc.stderr()).toContain('--help');
  });

  it('a malformed --fixtures file stops start-up naming the file and the field', async ({ folder: dir }) => {
    const file = join(dir, 'merchants.json');
    writeFileSync(file, JSON.stringify({ merchants: [{ id: DEMO.id, name: 'Shop', token: 'token-123', secret: 'secret-123', rate: 'ninety' }] }));
    const proc = run(['--fixtures', file, '--port', '0', '--in-memory']);
    expect(await proc.exited).toBe(1);
    expect(proc.stderr()).toContain(`Invalid fixtures file ${file}`);
    expect(proc.stderr()).toContain('merchants[0].rate: must be a number');
    expect(proc.stdout()).not.toContain('listening');
  });

  it('a --fixtures file that does not exist stops start-up naming it', async ({ folder }) => {
    const file = join(folder, 'missing.json');
    const proc = run(['--fixtures', file, '--port', '0', '--in-memory']);
    expect(await proc.exited).toBe(1);
    expect(proc.stderr()).toContain(`Invalid fixtures file ${file}`);
    expect(proc.stderr()).toContain('cannot be read');
  });

  it('a --fixtures file with own merchants is used', async ({ folder: dir }) => {
    const file = join(dir, 'merchants.json');
    const id = '2c9d7e41-5b6a-4f38-9e0d-7a1b3c5d7e9f';
    writeFileSync(file, JSON.stringify({ merchants: [{ id, name: 'Mine', token: 'my-token-1', secret: 'my-secret-1', rate: 100.25 }] }));
    const proc = await start(['--fixtures', file, '--port', '0', '--in-memory']);
    const created = await createTrade(proc.url, { ...p2p('own-1'), merchant: id }, { 'X-Auth': 'my-token-1' });
    expect(created.status).toBe(201);
    expect(created.body['rate']).toBe(100.25);
    expect((await createTrade(proc.url, p2p('own-2'))).status).toBe(401);
    expect(await stop(proc)).toBe(0);
  });

  it('a corrupt db.json stops start-up with a clear message and is left byte-identical', async ({ folder: data }) => {
    const file = join(data, 'db.json');
    writeFileSync(file, '{"version": 1, "trades": [ {"id": "half-written"');
    const before = readFileSync(file);
    const proc = run(['--port', '0', '--data', data]);
    expect(await proc.exited).toBe(1);
    expect(proc.stderr()).toContain(`The store at ${file} cannot be loaded`);
    expect(proc.stderr()).toContain('Move the file away to start empty; it is left untouched.');
    expect(proc.stdout()).not.toContain('listening');
    expect(readFileSync(file).equals(before)).toBe(true);
  });
});
