/**
 * State documents and forks through the app (app.request(), manual clock, a loopback receiver):
 * GET /_sandbox/state, PUT /_sandbox/state (all or nothing), POST /_sandbox/fork (isolation both
 * ways, pending callbacks held or kept, the name taken, the limit), POST /_sandbox/resume-callbacks.
 */
import { afterEach, describe, expect, vi } from 'vitest';
import { createServer } from '../../src/server/server.js';
import { forkCommand } from '../../src/cli/fork-command.js';
import { startSandbox } from '../../src/index.js';
import type { StateDocument } from '../../src/sessions/state-document.js';
import { type Receiver, startReceiver } from '../callbacks-receiver.js';
import { DEMO, errorOf, makeSandbox, p2pBody, testSandbox, type TestSandbox } from '../support.js';
import { it } from '../temp-folder.js';

let t: TestSandbox | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await t?.close();
  await receiver?.close();
  t = undefined;
  receiver = undefined;
});

const json = async <T = Record<string, unknown>>(res: Response | Promise<Response>): Promise<T> => (await res).json() as Promise<T>;
const state = (sandbox: TestSandbox, base = '') => json<StateDocument>(sandbox.app.request(`${base}/_sandbox/state`));
/** The document without what differs between two exports of the same data. */
const comparable = (document: StateDocument) => ({ ...document, exported_at: undefined, workspace: undefined });

const PROFILE = 'name: my-provider\nextends: sandbox\n';
const SCENARIOS = 'scenarios:\n  - name: w-late\n    description: Paid after two minutes.\n    match:\n      order: "^w-late-"\n    timeline:\n      - after: 2m\n        state: confirmed\n';

/** A workspace with a trade of each kind of history: confirmed with a delivered callback, one with a callback failing (a retry pending), one waiting for its timeline. */
async function prepare(sandbox: TestSandbox, base: string, url: string) {
  const merchant = (await json<{ merchant: { id: string; token: string } }>(sandbox.call('POST', `${base}/_sandbox/merchants`, { name: 'Own' }))).merchant;
  expect((await sandbox.call('PUT', `${base}/_sandbox/scenarios`, SCENARIOS)).status).toBe(200);
  expect((await sandbox.call('PUT', `${base}/_sandbox/profile`, PROFILE)).status).toBe(200);
  const delivered = await json<{ id: string }>(sandbox.post(`${base}/api/v1/trades/deposit/create`, p2pBody({ callback_url: `${url}/ok` })));
  const failing = await json<{ id: string }>(sandbox.post(`${base}/api/v1/trades/deposit/create`, p2pBody({ callback_url: `${url}/fail` })));
  const waiting = await json<{ id: string }>(sandbox.post(`${base}/api/v1/trades/deposit/create`, p2pBody({ order: 'w-late-1' })));
  const own = await json<{ id: string }>(sandbox.post(`${base}/api/v1/trades/deposit/create`, p2pBody({ merchant: merchant.id }), { 'X-Auth': merchant.token }));
  expect((await sandbox.call('POST', `${base}/_sandbox/trades/${delivered.id}/transition`, { state: 'confirmed' })).status).toBe(200);
  expect((await sandbox.call('POST', `${base}/_sandbox/trades/${failing.id}/transition`, { state: 'confirmed' })).status).toBe(200);
  // The first attempts of both callbacks: one delivered, one failed (its retry pending, 1 s later).
  await sandbox.call('POST', `${base}/_sandbox/clock/advance`, { by: '0s' });
  return { merchant, delivered, failing, waiting, own };
}

/** A receiver that answers 500 on /fail and 200 elsewhere. */
const failingReceiver = () => startReceiver((request, res) => void res.writeHead(request.path === '/fail' ? 500 : 200).end(request.path === '/fail' ? 'down' : 'ok'));

describe('GET and PUT /_sandbox/state', () => {
  it('exports everything a workspace holds, and a PUT elsewhere makes the same workspace', async () => {
    t = await makeSandbox({ clock: 'manual' });
    receiver = await failingReceiver();
    const prepared = await prepare(t, '/w/source', receiver.url);
    const exported = await state(t, '/w/source');
    expect(exported).toMatchObject({
      format: 'deposit-sandbox/state',
      version: 1,
      workspace: 'source',
      clock: { mode: 'manual' },
      profile: { source: 'workspace', name: 'my-provider', text: PROFILE },
      scenarios: SCENARIOS,
    });
    expect(exported.merchants).toEqual([expect.objectContaining({ id: prepared.merchant.id, token: prepared.merchant.token })]);
    expect(exported.trades).toHaveLength(4);
    expect(exported.callbacks.map((event) => event.status).sort()).toEqual(['delivered', 'pending']);
    expect(exported.jobs.map((job) => job.kind).sort()).toEqual(['callback', 'transition']);

    const put = await json<{ imported: Record<string, unknown>; callbacks: string }>(t.call('PUT', '/w/copy/_sandbox/state?callbacks=kept', exported));
    expect(put).toMatchObject({ callbacks: 'kept', imported: { trades: 4, callbacks: 2, jobs: 2, merchants: 1, held_callbacks: 0, clock: exported.clock.now } });
    expect(comparable(await state(t, '/w/copy'))).toEqual(comparable(exported));
    // In force there: the merchant authenticates, the scenarios match, the profile is the workspace's.
    expect((await t.post('/w/copy/api/v1/trades/deposit/create', p2pBody({ merchant: prepared.merchant.id }), { 'X-Auth': prepared.merchant.token })).status).toBe(201);
    expect((await json<{ source: string; profile: { name: string } }>(t.app.request('/w/copy/_sandbox/profile'))).profile.name).toBe('my-provider');
    expect((await json<{ scenarios: Array<{ name: string }> }>(t.app.request('/w/copy/_sandbox/scenarios'))).scenarios[0]?.name).toBe('w-late');
    // The timeline step runs there at its time.
    await t.call('POST', '/w/copy/_sandbox/clock/advance', { by: '2m' });
    const waiting = await json<{ trade: { state: string } }>(t.app.request(`/w/copy/_sandbox/trades/${prepared.waiting.id}`));
    expect(waiting.trade.state).toBe('confirmed');
  });

  it('a PUT replaces what the workspace held, merchants included', async () => {
    t = await makeSandbox({ clock: 'manual' });
    const empty = await state(t, '/w/empty');
    const merchant = (await json<{ merchant: { id: string; token: string } }>(t.call('POST', '/w/full/_sandbox/merchants', {}))).merchant;
    await t.post('/w/full/api/v1/trades/deposit/create', p2pBody());
    expect((await t.call('PUT', '/w/full/_sandbox/state', empty)).status).toBe(200);
    const now = await state(t, '/w/full');
    expect([now.trades, now.merchants, now.callbacks, now.jobs]).toEqual([[], [], [], []]);
    expect((await t.post('/w/full/api/v1/trades/deposit/create', p2pBody({ merchant: merchant.id }), { 'X-Auth': merchant.token })).status).toBe(401);
  });

  it("a PUT keeps the workspace's integration report counts written in its store", async () => {
    t = await makeSandbox({ clock: 'manual' });
    const empty = await state(t, '/w/empty');
    expect((await t.post('/api/v1/trades/deposit/create', p2pBody(), { 'X-Auth': 'not-the-token' })).status).toBe(401);
    // The counts are written a moment after the mistake; a PUT then must not take them out of the store.
    await vi.waitFor(() => expect(t?.sandbox.store.meta.get('report')).toBeDefined(), { timeout: 5_000 });
    const written = t.sandbox.store.meta.get('report');
    expect((await t.call('PUT', '/_sandbox/state', empty)).status).toBe(200);
    expect(t.sandbox.store.meta.get('report')).toEqual(written);
    expect((await json<{ total: number }>(t.app.request('/_sandbox/report'))).total).toBe(1);
  });

  it('refuses a body that is not a valid state document, from a newer version, or inconsistent, and changes nothing', async () => {
    t = await makeSandbox({ clock: 'manual' });
    receiver = await failingReceiver();
    await prepare(t, '/w/a', receiver.url);
    const before = await state(t, '/w/a');
    const refused = async (body: unknown, code: string, text: RegExp) => {
      const res = await (t as TestSandbox).call('PUT', '/w/a/_sandbox/state', body);
      expect(res.status).toBe(422);
      const error = await errorOf(res);
      expect(error.code).toBe(code);
      expect(error.message).toMatch(text);
      expect(comparable(await state(t as TestSandbox, '/w/a'))).toEqual(comparable(before));
      return error;
    };
    await refused({ trades: [] }, 'validation_failed', /not a state document/);
    await refused({ ...before, version: 2 }, 'validation_failed', /newer deposit-sandbox \(state version 2\).*upgrade/);
    const field = await refused({ ...before, trades: [{ ...before.trades[0], amount_cents: 'a lot' }] }, 'validation_failed', /expected number/);
    expect(field.details).toEqual([{ field: 'trades[0].amount_cents', message: expect.any(String) }]);
    const [first] = before.trades;
    if (!first) throw new Error('no trade');
    await refused({ ...before, trades: [...before.trades, { ...first, id: 'another' }] }, 'invalid_state', /order of an earlier trade/);
    await refused({ ...before, trades: before.trades.slice(1) }, 'invalid_state', /is not the id of a trade in trades/);
    await refused({ ...before, merchants: [{ ...DEMO, rate: 92.5, name: 'Demo' }] }, 'invalid_state', /fixtures/);
    const scenarios = await refused({ ...before, scenarios: 'scenarios:\n  - name: x\n    match: 7\n' }, 'invalid_state', /scenarios/);
    expect(scenarios.details[0]?.field).toMatch(/^scenarios line \d+/);
    await refused({ ...before, profile: { source: 'workspace', name: 'x', text: 'signing: nope\n' } }, 'invalid_state', /profile\.text/);
  });

  it('answers 413 for a document over the limit of state documents, before reading it', async () => {
    t = await makeSandbox();
    const res = await t.app.request('/_sandbox/state', { method: 'PUT', headers: { 'Content-Type': 'application/json', 'Content-Length': String(16 * 1024 * 1024 + 1) }, body: '{}' });
    expect(res.status).toBe(413);
    expect((await errorOf(res)).code).toBe('body_too_large');
  });
});

describe('POST /_sandbox/fork', () => {
  it('copies a workspace in one step; writes to either never show in the other', async () => {
    t = await makeSandbox({ clock: 'manual' });
    receiver = await failingReceiver();
    const prepared = await prepare(t, '/w/prepared', receiver.url);
    const source = await state(t, '/w/prepared');
    const forked = await t.call('POST', '/w/prepared/_sandbox/fork', { to: 'test-1' });
    expect(forked.status).toBe(201);
    expect(await forked.json()).toMatchObject({ status: 'forked', from: 'prepared', workspace: 'test-1', path: '/w/test-1', callbacks: 'paused', imported: { trades: 4, held_callbacks: 1 } });
    const copy = await state(t, '/w/test-1');
    expect(copy.trades).toEqual(source.trades);
    expect(copy.merchants).toEqual(source.merchants);
    expect(copy.clock.now).toBe(source.clock.now);

    // Fork -> source: a new trade, a move, a reset of the fork.
    const inFork = await json<{ id: string }>(t.post('/w/test-1/api/v1/trades/deposit/create', p2pBody()));
    expect((await t.call('POST', `/w/test-1/_sandbox/trades/${prepared.waiting.id}/transition`, { state: 'canceled' })).status).toBe(200);
    expect((await t.get(`/w/prepared/api/v1/trades/${DEMO.id}/${inFork.id}`)).status).toBe(404);
    expect((await json<{ trade: { state: string } }>(t.app.request(`/w/prepared/_sandbox/trades/${prepared.waiting.id}`))).trade.state).toBe('created');
    // Source -> fork.
    const inSource = await json<{ id: string }>(t.post('/w/prepared/api/v1/trades/deposit/create', p2pBody()));
    expect((await t.get(`/w/test-1/api/v1/trades/${DEMO.id}/${inSource.id}`)).status).toBe(404);
    expect((await t.call('POST', '/w/test-1/_sandbox/reset')).status).toBe(200);
    expect((await state(t, '/w/prepared')).trades).toHaveLength(5);
    // The clocks are apart too.
    await t.call('POST', '/w/test-1/_sandbox/clock/advance', { by: '1h' });
    expect((await state(t, '/w/prepared')).clock.now).toBe(source.clock.now);
  });

  it('holds the pending callbacks it copies until resumed; with "kept" they go out as they fall due', async () => {
    t = await makeSandbox({ clock: 'manual' });
    receiver = await failingReceiver();
    const prepared = await prepare(t, '/w/prepared', receiver.url);
    await t.call('POST', '/w/prepared/_sandbox/fork', { to: 'paused' });
    await t.call('POST', '/w/prepared/_sandbox/fork', { to: 'kept', callbacks: 'kept' });
    const sent = () => receiver?.received.filter((request) => request.path === '/fail').map((request) => request.headers['x-sandbox-workspace']) ?? [];
    expect(sent()).toEqual(['prepared']);

    await t.call('POST', '/w/paused/_sandbox/clock/advance', { by: '1h' });
    await t.call('POST', '/w/kept/_sandbox/clock/advance', { by: '1s' });
    expect(sent()).toEqual(['prepared', 'kept']);
    const held = await json<{ callback: { status: string; attempts: unknown[] } }>(t.app.request(`/w/paused/_sandbox/callbacks/cb_${prepared.failing.id}_1`));
    expect(held.callback).toMatchObject({ status: 'pending', attempts: [expect.anything()] });
    // A later state change of that trade waits behind the held event, in order.
    expect((await json<{ pending: number; next_due: string }>(t.app.request('/w/paused/_sandbox/clock'))).pending).toBe(1);

    const resumed = await json<{ resumed: number }>(t.call('POST', '/w/paused/_sandbox/resume-callbacks'));
    expect(resumed.resumed).toBe(1);
    await t.call('POST', '/w/paused/_sandbox/clock/advance', { by: '0s' });
    expect(sent()).toEqual(['prepared', 'kept', 'paused']);
    const after = await json<{ callback: { attempts: Array<{ attempt: number }> } }>(t.app.request(`/w/paused/_sandbox/callbacks/cb_${prepared.failing.id}_1`));
    expect(after.callback.attempts.map((attempt) => attempt.attempt)).toEqual([1, 2]);
    expect((await json<{ resumed: number }>(t.call('POST', '/w/paused/_sandbox/resume-callbacks'))).resumed).toBe(0);
  });

  it('refuses a taken name (409), an unknown source (404, nothing made) and a fork past --max-workspaces (429)', async () => {
    t = await makeSandbox({ maxWorkspaces: 2 });
    await t.post('/w/one/api/v1/trades/deposit/create', p2pBody());
    expect((await errorOf(await t.call('POST', '/w/one/_sandbox/fork', { to: 'one' }))).code).toBe('workspace_exists');
    expect((await t.call('POST', '/w/one/_sandbox/fork', { to: 'default' })).status).toBe(409);
    expect((await t.call('POST', '/w/one/_sandbox/fork', { to: 'bad/name' })).status).toBe(422);
    const unknown = await t.call('POST', '/w/nothing-here/_sandbox/fork', { to: 'two' });
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).code).toBe('workspace_not_found');
    expect((await t.call('POST', '/_sandbox/fork', { to: 'two' })).status).toBe(201);
    const names = await json<{ workspaces: Array<{ name: string }> }>(t.app.request('/_sandbox/workspaces'));
    expect(names.workspaces.map((w) => w.name)).toEqual(['default', 'one', 'two']);
    const limit = await t.call('POST', '/w/one/_sandbox/fork', { to: 'three' });
    expect(limit.status).toBe(429);
    expect((await errorOf(limit)).code).toBe('workspace_limit');
  });

  it('100 forks at once all succeed', async () => {
    t = await makeSandbox({ clock: 'manual' });
    for (let i = 0; i < 20; i++) await t.post('/api/v1/trades/deposit/create', p2pBody());
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => (t as TestSandbox).call('POST', '/_sandbox/fork', { to: `f-${i}` })));
    expect(answers.map((res) => res.status)).toEqual(Array.from({ length: 100 }, () => 201));
    expect((await state(t, '/w/f-99')).trades).toHaveLength(20);
  });

  it('a fork kept in a data folder is there after a restart, its held callbacks still held', async ({ folder }) => {
    receiver = await failingReceiver();
    const open = async () => testSandbox(await createServer({ data: folder, clock: 'manual' }));
    t = await open();
    await prepare(t, '', receiver.url);
    expect((await t.call('POST', '/_sandbox/fork', { to: 'kept-on-disk' })).status).toBe(201);
    const before = await state(t, '/w/kept-on-disk');
    await t.close();
    t = await open();
    await t.server.workspaces.loaded();
    expect(comparable(await state(t, '/w/kept-on-disk'))).toEqual(comparable(before));
    await t.call('POST', '/w/kept-on-disk/_sandbox/clock/advance', { by: '1h' });
    expect(receiver.received.filter((request) => request.headers['x-sandbox-workspace'] === 'kept-on-disk')).toEqual([]);
  });
});

describe('startSandbox(): fork() and state()', () => {
  it('forks the default workspace and a workspace, each answering its state', async () => {
    const sandbox = await startSandbox({ clock: 'manual' });
    try {
      // ... prepare the workspace default once: trades in the states the tests need ...
      const created = await fetch(`${sandbox.url}/api/v1/trades/deposit/create`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token },
        body: JSON.stringify(p2pBody()),
      });
      expect(created.status).toBe(201);
      const prepared = await sandbox.state();
      const n = 1;
      const ws = await sandbox.fork(`test-${n}`); // a WorkspaceHandle: ws.url, ws.admin, ws.callbacks.waitFor
      const document = await ws.state(); // a StateDocument
      expect(ws.url).toBe(`${sandbox.url}/w/test-1`);
      expect(document.trades).toEqual(prepared.trades);
      const again = await ws.fork('test-2', { callbacks: 'kept' });
      expect((await again.state()).trades).toEqual(prepared.trades);
      await expect(sandbox.fork('test-1')).rejects.toThrow(/exists already/);

      // deposit-sandbox fork <source> <name>: what it prints, and a refusal naming the sandbox.
      let printed = '';
      const answer = await forkCommand('test-1', 'test-3', { url: sandbox.url }, 'flag', (text) => {
        printed += text;
      });
      expect(answer.workspace).toBe('test-3');
      expect(printed).toContain('Forked workspace test-1 as test-3: 1 trade, 0 callbacks, 0 pending steps');
      expect(printed).toContain(`Its base URL: ${sandbox.url}/w/test-3`);
      await expect(forkCommand('default', 'test-3', { url: sandbox.url }, 'flag', () => undefined)).rejects.toThrow(/exists already[\s\S]*sandbox: http/);
    } finally {
      await sandbox.close();
    }
  });
});
