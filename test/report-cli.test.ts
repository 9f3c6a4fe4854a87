/**
 * `deposit-sandbox report` and `serve --report` as real processes (the build in dist/: run
 * `npm run build` before this file alone): a sandbox on 127.0.0.1, port 0, sees a merchant's
 * mistakes over HTTP; the report prints them, and the sandbox writes JUnit XML on exit. Where
 * only the report command's process is the point (--fail-on), the sandbox it reads runs in this
 * process.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect } from 'vitest';
import { it, test } from './temp-folder.js';
import { startReceiver } from './callbacks-receiver.js';
import { junitErrors } from './junit-schema.js';
import { DEMO } from './support.js';
import { startSandbox } from '../src/programmatic/start-sandbox.js';
import { cleanEnv, runCli as cli } from './sandbox-process.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'deposit-sandbox.js');
const env = cleanEnv();
/** The file's temporary folder (the fixture removes it after the file's tests). */
let dir: string;
test.beforeAll(({ fileFolder }) => {
  dir = fileFolder;
});
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** Starts `deposit-sandbox serve` and resolves with its URL and exit. */
async function serve(args: string[]): Promise<{ url: string; child: ChildProcessWithoutNullStreams; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [BIN, '--port', '0', '--in-memory', ...args], { cwd: ROOT, env, stdio: 'pipe' });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /^deposit-sandbox listening on (\S+)\n/.exec(out);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  return { url, child, exited };
}

async function mistakes(url: string): Promise<void> {
  const create = (headers: Record<string, string>, body: Record<string, unknown>) =>
    fetch(`${url}/api/v1/trades/deposit/create`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const body = { merchant: DEMO.id, order: 'report-cli-1', amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank' };
  expect((await create({ 'X-Auth': DEMO.token }, body)).status).toBe(201);
  expect((await create({ 'X-Auth': DEMO.token }, body)).status).toBe(422); // duplicate order
  expect((await create({ 'X-Token': DEMO.token }, { ...body, order: 'report-cli-2' })).status).toBe(401); // wrong header
  expect((await create({ 'X-Auth': DEMO.token }, { ...body, order: 'report-cli-3', amount_cents: 0.5 })).status).toBe(422);
}

describe('deposit-sandbox report and serve --report', () => {
  it('report prints Markdown, JUnit and JSON of a running sandbox; serve --report writes JUnit XML on SIGTERM', async () => {
    const file = join(dir, 'sandbox-report.xml');
    const sandbox = await serve(['--report', file]);
    await mistakes(sandbox.url);

    const md = await cli(['report', '--url', sandbox.url]);
    expect(md.stderr).toBe('');
    expect(md.code).toBe(0);
    expect(md.stdout).toContain(`# deposit-sandbox integration report\n\n3 mistakes of 1 merchant.\n\n## Demo Shop (${DEMO.id}): 3 mistakes\n`);
    expect(md.stdout).toContain('| authenticates every request (no 401) | 1 | 401 wrong_auth_header: 1 |');
    expect(md.stdout).toContain('| sends valid requests (no 422) | 1 | 422 validation_failed on amount_cents: 1 |');
    expect(md.stdout).toContain('| uses each order once | 1 | 422 duplicate_order: 1 |');

    const junit = join(dir, 'from-report.xml');
    const written = await cli(['report', '--url', sandbox.url, '--format', 'junit', '--output', junit]);
    expect(written).toMatchObject({ code: 0, stdout: '' });
    const xml = readFileSync(junit, 'utf8');
    expect(await junitErrors(xml)).toEqual([]);
    expect(xml).toContain('failures="3"');

    const json = JSON.parse((await cli(['report', '--url', sandbox.url, '--format', 'json'])).stdout) as { total: number };
    expect(json.total).toBe(3);

    expect(existsSync(file)).toBe(false);
    sandbox.child.kill('SIGTERM');
    expect(await sandbox.exited).toBe(0);
    const onExit = readFileSync(file, 'utf8');
    expect(await junitErrors(onExit)).toEqual([]);
    expect(onExit).toBe(xml);
  });

  it('report --fail-on: not-handled exits 1 while a coverage row is not handled, wrong exits 1 once a row is answered wrong; JUnit shows the coverage', async ({ onTestFinished }) => {
    const down = await startReceiver((_q, res) => void res.writeHead(500).end('down'));
    try {
      // The report command is the process here; the sandbox it reads runs in this process.
      const sandbox = await startSandbox({ inMemory: true, callbackRetries: '100ms' });
      onTestFinished(() => sandbox.close());
      const created = await fetch(`${sandbox.url}/api/v1/trades/deposit/create`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token },
        body: JSON.stringify({ merchant: DEMO.id, order: 'report-cli-fail-1', amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank', callback_url: `${down.url}/cb` }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };

      expect(await cli(['report', '--url', sandbox.url, '--fail-on', 'wrong'])).toMatchObject({ code: 0, stderr: '' });
      const strict = await cli(['report', '--url', sandbox.url, '--fail-on', 'not-handled', '--format', 'junit']);
      expect(strict.code).toBe(1);
      expect(strict.stderr).toContain(`deposit-sandbox: --fail-on not-handled: 12 coverage rows fail:\n  Demo Shop (${DEMO.id}): create.refused_401 not_seen\n`);
      expect(await junitErrors(strict.stdout)).toEqual([]);

      // Confirmed: the callback is answered 500, retried once, and fails.
      const moved = await fetch(`${sandbox.url}/_sandbox/trades/${id}/transition`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ state: 'confirmed' }) });
      expect(moved.status).toBe(200);
      await down.waitFor(2);
      const failed = async () => ((await (await fetch(`${sandbox.url}/_sandbox/callbacks?trade=${id}`)).json()) as { callbacks: Array<{ status: string }> }).callbacks[0]?.status === 'failed';
      for (let i = 0; i < 100 && !(await failed()); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      const wrong = await cli(['report', '--url', sandbox.url, '--fail-on', 'wrong']);
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toContain(`Demo Shop (${DEMO.id}): callback.confirmed wrong: never acknowledged: 2 attempts failed, the last with HTTP 500`);
      expect(wrong.stdout).toContain(`| callback.confirmed | wrong | ${id} | never acknowledged`);
    } finally {
      await down.close();
    }
  }, 60_000);

  it("serve --report on SIGHUP writes the JUnit of every workspace, a deleted one's included, each named", async () => {
    const file = join(dir, 'hangup-report.xml');
    const sandbox = await serve(['--report', file]);
    const send = (prefix: string, token: string) =>
      fetch(`${sandbox.url}${prefix}/api/v1/trades/deposit/create`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Auth': token },
        body: JSON.stringify({ merchant: DEMO.id, order: 'report-hup-1', amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank' }),
      });
    const wrong = (prefix: string) => send(prefix, 'not-the-token');
    // Each workspace is made by an accepted create (a refused request alone makes none), then refused once.
    for (const prefix of ['/w/worker-1', '/w/worker-2']) expect((await send(prefix, DEMO.token)).status).toBe(201);
    expect((await wrong('/w/worker-1')).status).toBe(401);
    expect((await wrong('/w/worker-2')).status).toBe(401);
    expect((await fetch(`${sandbox.url}/w/worker-2/_sandbox`, { method: 'DELETE' })).status).toBe(200);
    sandbox.child.kill('SIGHUP');
    expect(await sandbox.exited).toBe(0);
    const xml = readFileSync(file, 'utf8');
    expect(await junitErrors(xml)).toEqual([]);
    expect(xml).toContain(`<testsuite name="deposit-sandbox integration: Demo Shop (${DEMO.id}) in workspace worker-1" tests="7" failures="1"`);
    expect(xml).toContain(`<testsuite name="deposit-sandbox integration: Demo Shop (${DEMO.id}) in workspace worker-2" tests="7" failures="1"`);
  });

  it('serve --probe checks credits through the balance probe: the JUnit file on exit says so and passes the confirmed row; a bad --probe stops serve with what to write', async () => {
    let credited = 0;
    const shop = await startReceiver((q, res) => {
      if (q.method === 'GET') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ state: credited > 0 ? 'confirmed' : null, credited_cents: credited }));
      credited = (JSON.parse(q.body) as { amount_cents: number }).amount_cents;
      res.writeHead(200).end();
    });
    try {
      const file = join(dir, 'probe-report.xml');
      const sandbox = await serve(['--report', file, '--probe', `${shop.url}/probe`]);
      const created = await fetch(`${sandbox.url}/api/v1/trades/deposit/create`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token },
        body: JSON.stringify({ merchant: DEMO.id, order: 'report-cli-probe-1', amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank', callback_url: `${shop.url}/cb` }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const moved = await fetch(`${sandbox.url}/_sandbox/trades/${id}/transition`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ state: 'confirmed' }) });
      expect(moved.status).toBe(200);
      // The callback, then the probe read the sandbox starts once it was acknowledged; the report waits for that read.
      const [, probed] = await shop.waitFor(2);
      expect(probed).toMatchObject({ method: 'GET', path: '/probe?order=report-cli-probe-1' });
      const md = await cli(['report', '--url', sandbox.url]);
      expect(md.stdout).toContain(`| callback.confirmed | handled | ${id} | acknowledged with 2xx; the balance probe shows order report-cli-probe-1 credited 31250 once |`);
      expect(md.stdout).toContain('Credits checked: a callback row is handled only when the balance probe (serve --probe) showed the right credit.');
      sandbox.child.kill('SIGTERM');
      expect(await sandbox.exited).toBe(0);
      const xml = readFileSync(file, 'utf8');
      expect(await junitErrors(xml)).toEqual([]);
      expect(xml).toContain('<property name="credits" value="checked"/>');
      expect(xml).toContain(`<testcase classname="deposit-sandbox.coverage.${DEMO.id}" name="callback.confirmed: a confirmed callback acknowledged"/>`);
    } finally {
      await shop.close();
    }
    const bad = await cli(['--in-memory', '--port', '0', '--probe', 'http://127.0.0.1:3000/probe?order={order}']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--probe: holds {order}, which is no placeholder: use {merchant} or {workspace}');
  }, 60_000);

  it('report says what to do when no sandbox answers or the format is unknown', async () => {
    const down = await cli(['report', '--url', 'http://127.0.0.1:1']);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('deposit-sandbox: Could not reach the sandbox at http://127.0.0.1:1');
    const format = await cli(['report', '--format', 'html']);
    expect(format.code).toBe(1);
    expect(format.stderr).toContain("argument 'html' is invalid. Allowed choices are markdown, junit, json.");
  });
});
