/**
 * `deposit-sandbox wait` and serve's --ready-file as CI scripts use them, and serve's scenario
 * lines and values from the environment: real sandbox processes on port 0 (one in this process
 * where only the wait command is the point) and the CLI as separate processes, real HTTP on
 * 127.0.0.1 (trigger and reset: admin-trigger.test.ts).
 * Runs the build in dist/ (`npm test` builds first; run `npm run build` before running this file alone).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { it, test } from './temp-folder.js';
import { CLOSED_PORT, freePort } from './callbacks-receiver.js';
import { killAll, runCli as cli, startProcess, stopProcess as stop, type SandboxProcess } from './sandbox-process.js';
import { DEMO, nextOrder, p2pBody } from './support.js';
import { ScenarioEngine } from '../src/scenarios/scenario-engine.js';
import { startSandbox } from '../src/programmatic/start-sandbox.js';

/** The file's temporary folder (the fixture removes it after the file's tests). */
let dir: string;
test.beforeAll(({ fileFolder }) => {
  dir = fileFolder;
});
afterEach(killAll);

/** Starts `deposit-sandbox --in-memory <args>` and resolves once its ready line is out. */
const serve = (args: string[], env: Record<string, string> = {}): Promise<SandboxProcess> => startProcess(['--in-memory', ...args], env);

const create = (url: string, body: Record<string, unknown>): Promise<Response> =>
  fetch(`${url}/api/v1/trades/deposit/create`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token }, body: JSON.stringify(body) });

describe('serve --ready-file', () => {
  it('writes {"url", "pid"} once listening and removes it on exit', async () => {
    const file = join(dir, 'sandbox.ready');
    const served = await serve(['--port', '0', '--ready-file', file]);
    // The ready line is printed after the file is in place, so it is there now.
    const ready = JSON.parse(readFileSync(file, 'utf8')) as { url: string; pid: number };
    expect(ready).toEqual({ url: served.url, pid: served.child.pid });
    expect((await fetch(`${ready.url}/_sandbox/health`)).status).toBe(200);
    expect(await stop(served)).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it('reads DEPOSIT_SANDBOX_READY_FILE, and a folder that does not exist stops start-up with a clear error', async () => {
    const file = join(dir, 'from-env.ready');
    const served = await serve(['--port', '0'], { DEPOSIT_SANDBOX_READY_FILE: file });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ url: served.url });
    await stop(served);

    const missing = join(dir, 'no-such-folder', 'x.ready');
    const bad = await cli(['--port', '0', '--in-memory', '--ready-file', missing]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`Cannot write the --ready-file ${missing}`);
  });
});

describe('deposit-sandbox wait', () => {
  it('exits 0 once the sandbox is healthy, also when started before it', async ({ onTestFinished }) => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const waiting = cli(['wait', '--url', url, '--timeout', '25s']);
    // The wait command is the process here; the sandbox it waits for runs in this process.
    const served = await startSandbox({ inMemory: true, port });
    onTestFinished(() => served.close());
    const result = await waiting;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`The sandbox at ${url} is healthy.\n`);
    // Already up: at once.
    expect((await cli(['wait'], { DEPOSIT_SANDBOX_URL: served.url })).code).toBe(0);
    // --workspace asks that workspace's health (and so creates it, like any first use).
    const inWorkspace = await cli(['wait', '--workspace', 'ci-1'], { DEPOSIT_SANDBOX_URL: served.url });
    expect(inWorkspace.stdout).toBe(`The sandbox at ${served.url.replace(/\/+$/, '')} (workspace ci-1) is healthy.\n`);
    const listed = (await (await fetch(`${served.url}/_sandbox/workspaces`)).json()) as { workspaces: Array<{ name: string }> };
    expect(listed.workspaces.map((w) => w.name)).toContain('ci-1');
  });

  it('--ready-file finds a --port 0 sandbox: waits for the file to appear, then for the URL it holds', async () => {
    const file = join(dir, 'wait-for.ready');
    // Started before the sandbox: the file does not exist yet.
    const waiting = cli(['wait', '--ready-file', file, '--timeout', '25s']);
    const served = await serve(['--port', '0', '--ready-file', file]);
    const result = await waiting;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`The sandbox at ${served.url} is healthy.\n`);
    // The same file through the variable serve reads too; a --url flag wins over it.
    expect((await cli(['wait', '--timeout', '5s'], { DEPOSIT_SANDBOX_READY_FILE: file })).stdout).toBe(`The sandbox at ${served.url} is healthy.\n`);
    const both = await cli(['wait', '--url', served.url, '--ready-file', file]);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('Pass --url or --ready-file, not both');
    await stop(served);
    // Removed on exit: a wait now names the file it waited for.
    const gone = await cli(['wait', '--ready-file', file, '--timeout', '300ms']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain(`No sandbox within 300ms: the ready file ${file} does not exist yet. Start it with --ready-file ${file}, or raise --timeout.`);
  });

  it('exits 1 after --timeout with the last problem and the sandbox it asked', async () => {
    const port = CLOSED_PORT;
    // Long enough for an attempt to finish on a loaded machine (one took over 1 s to meet the
    // closed port), so the last problem is the refusal and not the attempt's own time limit.
    const result = await cli(['wait', '--url', `http://127.0.0.1:${port}`, '--timeout', '5s']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`The sandbox at http://127.0.0.1:${port} was not healthy within 5s`);
    expect(result.stderr).toContain('ECONNREFUSED');
    expect(result.stderr).toContain(`sandbox: http://127.0.0.1:${port} (from --url)`);
    const bad = await cli(['wait', '--url', 'http://127.0.0.1:1', '--timeout', 'soon']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--timeout must be a duration');
  });
});

describe('serve: scenarios and values from the environment', () => {
  it('prints one line per create a scenario takes; DEPOSIT_SANDBOX_NO_BUNDLED_SCENARIOS=1 turns them off', async () => {
    const served = await serve(['--port', '0', '--clock', 'manual']);
    const order = nextOrder('sbx-confirm');
    const res = await create(served.url, p2pBody({ order }));
    expect(res.headers.get('X-Sandbox-Scenario')).toBe('confirm');
    await create(served.url, p2pBody({ order: nextOrder('dup-fixed') }));
    await stop(served);
    const lines = served
      .stdout()
      .split('\n')
      .filter((line) => line.includes('scenario "'));
    expect(lines).toEqual([
      `deposit-sandbox: scenario "confirm" took any_bank order "${order}" (merchant ${DEMO.id}): confirmed after 5s [scenarios/10-outcomes.yaml:9, order starting with "sbx-confirm-"]`,
    ]);

    const off = await serve(['--port', '0'], { DEPOSIT_SANDBOX_NO_BUNDLED_SCENARIOS: '1' });
    const plain = await create(off.url, p2pBody({ order: nextOrder('sbx-confirm') }));
    expect(plain.status).toBe(201);
    expect(plain.headers.get('X-Sandbox-Scenario')).toBeNull();
    await stop(off);
  });

  it('`scenarios --no-bundled-scenarios` lists what serve would load without them', async () => {
    const none = await cli(['scenarios', '--no-bundled-scenarios']);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('No scenarios: the bundled ones are turned off');
    const json = await cli(['scenarios', '--json'], { DEPOSIT_SANDBOX_NO_BUNDLED_SCENARIOS: 'yes' });
    expect(JSON.parse(json.stdout)).toEqual({ scenarios: [] });
    const kept = await cli(['scenarios', '--json'], { DEPOSIT_SANDBOX_NO_BUNDLED_SCENARIOS: 'false' });
    // Every bundled scenario, as the sandbox loads them in-process.
    expect((JSON.parse(kept.stdout) as { scenarios: unknown[] }).scenarios).toHaveLength(ScenarioEngine.load(undefined, { bundled: true }).entries().length);
  });

  // Start-up checks every value before it stops, so one process shows several (each row a process).
  it.each([
    [
      { PORT: 'abc', DEPOSIT_SANDBOX_SEED: 'abc', DEPOSIT_SANDBOX_PUBLIC_URL: 'localhost:8080' },
      ['PORT: must be a port number from 0 to 65535', 'DEPOSIT_SANDBOX_SEED: must be a whole number', 'DEPOSIT_SANDBOX_PUBLIC_URL: must be an absolute http(s) URL'],
    ],
    [{ DEPOSIT_SANDBOX_PORT: '70000' }, ['DEPOSIT_SANDBOX_PORT: must be from 0 to 65535']],
  ])('each bad value in %j is reported under the variable it came from', async (env, messages) => {
    const result = await cli(['--in-memory'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('deposit-sandbox: Invalid options:');
    for (const message of messages) expect(result.stderr).toContain(`\n  ${message}`);
    expect(result.stderr).not.toMatch(/--port|--seed|--public-url/);
  });
});
