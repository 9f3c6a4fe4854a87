/**
 * `deposit-sandbox clock`, `clock advance <duration>` and `replay <callback id>`: what QA does in
 * the dashboard's clock panel and with its Replay button, from the command line. An in-process
 * sandbox (startSandbox) and the CLI as a separate process (the build in dist/), with --url and
 * --workspace as `trigger` takes them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../src/programmatic/start-sandbox.js';
import { startReceiver, type Receiver } from './callbacks-receiver.js';
import { DEMO, nextOrder, p2pBody } from './support.js';
import { runCli as cli } from './sandbox-process.js';

let sandbox: RunningSandbox;
let receiver: Receiver;
beforeAll(async () => {
  sandbox = await startSandbox({ clock: 'manual', adminToken: 'qa-token' });
  receiver = await startReceiver();
});
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

const create = (base: string, body: Record<string, unknown>) =>
  fetch(`${base}/api/v1/trades/deposit/create`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token }, body: JSON.stringify(body) });

describe('deposit-sandbox clock', () => {
  it('shows the mode, the time and the next pending step; advance runs what fell due, in a workspace', async () => {
    const workspace = sandbox.workspace('qa-clock');
    // The bundled "expire" scenario: the trade expires 15 minutes after it was created.
    const created = await create(workspace.url, p2pBody({ order: nextOrder('sbx-expire-cli') }));
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const target = ['--url', sandbox.url, '--workspace', 'qa-clock', '--admin-token', 'qa-token'];

    const shown = await cli(['clock', ...target]);
    expect(shown.stderr).toBe('');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^The clock of ${sandbox.url}/w/qa-clock is manual: now \\S+; 1 pending step, the next due \\S+ \\(in 15m\\)\\.\\n$`));

    // A Russian unit, as the Russian dashboard's clock field takes it.
    const advanced = await cli(['clock', 'advance', '16 мин', ...target]);
    expect(advanced.stderr).toBe('');
    expect(advanced.stdout).toMatch(new RegExp(`^Advanced the clock of ${sandbox.url}/w/qa-clock by 16m: now \\S+; ran 1 step that fell due\\.\\n$`));
    expect((await workspace.admin.trade(id)).trade.state).toBe('expired');

    // The unprefixed sandbox's clock did not move; --json answers as the admin API does; the URL from the environment.
    const json = await cli(['clock', '--json', '--admin-token', 'qa-token'], { DEPOSIT_SANDBOX_URL: sandbox.url });
    expect(JSON.parse(json.stdout)).toMatchObject({ mode: 'manual', pending: 0, next_due: null });
    expect(Date.parse((JSON.parse(json.stdout) as { now: string }).now)).toBeLessThan(Date.parse((await workspace.admin.clock()).now));
  });

  it('refuses a duration that is not one, and names the sandbox when the admin token is missing', async () => {
    const bad = await cli(['clock', 'advance', 'soon', '--url', sandbox.url, '--admin-token', 'qa-token']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('The duration must be a duration such as');
    expect(bad.stderr).toContain('deposit-sandbox clock advance 10m');
    expect(bad.stderr).not.toContain('the units are');
    const years = await cli(['clock', 'advance', '10 лет', '--url', sandbox.url, '--admin-token', 'qa-token']);
    expect(years.code).toBe(1);
    expect(years.stderr).toContain('got "10 лет" (the units are ms, s, m, h, d, w, y');
    expect(years.stderr).toContain('or in Russian мс, с (сек, секунд), м (мин, минут)');
    const noToken = await cli(['clock', 'advance', '1m', '--url', sandbox.url]);
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toContain(`sandbox: ${sandbox.url} (from --url)`);
  });
});

describe('deposit-sandbox replay', () => {
  it('sends a callback again as a new event, in a workspace, and says where to follow it', async () => {
    const workspace = sandbox.workspace('qa-replay');
    const created = await create(workspace.url, p2pBody({ order: nextOrder('replay'), callback_url: `${receiver.url}/callbacks` }));
    const { id } = (await created.json()) as { id: string };
    await workspace.admin.transition(id, 'confirmed');
    const first = await workspace.callbacks.waitFor({ trade: id, state: 'confirmed' });
    const before = receiver.received.length;

    const replayed = await cli(['replay', first.id, '--url', sandbox.url, '--workspace', 'qa-replay', '--admin-token', 'qa-token']);
    expect(replayed.stderr).toBe('');
    expect(replayed.code).toBe(0);
    const newId = /as (\S+) \(state confirmed, trade /.exec(replayed.stdout)?.[1];
    expect(newId).toBeDefined();
    expect(newId).not.toBe(first.id);
    expect(replayed.stdout).toContain(`Replayed callback ${first.id} of ${sandbox.url}/w/qa-replay as ${newId} (state confirmed, trade ${id}): sent to ${receiver.url}/callbacks`);
    expect(replayed.stdout).toContain(`Follow it: GET ${sandbox.url}/w/qa-replay/_sandbox/callbacks/${newId}`);
    const again = await receiver.waitFor(before + 1);
    expect(again[before]?.body).toBe(first.body);
    expect((await workspace.admin.callback(newId!)).replay_of).toBe(first.id);
  });

  it('an unknown callback id is the admin API 404, with the sandbox named', async () => {
    const missing = await cli(['replay', 'no-such-callback', '--url', sandbox.url, '--admin-token', 'qa-token', '--json']);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('no-such-callback');
    expect(missing.stderr).toContain(`sandbox: ${sandbox.url} (from --url)`);
  });
});
