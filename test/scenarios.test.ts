import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, vi } from 'vitest';
import { folderIn, it, test } from './temp-folder.js';
import { createServer } from '../src/server/server.js';
import type { TradeRecord } from '../src/trades/trade.js';
import { DEMO, ecomBody, errorOf, makeSandbox, nextOrder, p2pBody, type TestSandbox } from './support.js';

const CREATE = '/api/v1/trades/deposit/create';
const BUILD = '/api/v1/trades/deposit/build';

/** The file's temporary folder (the fixture removes it after the file's tests). */
let root: string;
test.beforeAll(({ fileFolder }) => {
  root = fileFolder;
});

let t: TestSandbox;
beforeEach(async () => {
  t = await makeSandbox({ clock: 'manual' });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await t.close();
});

/** POSTs a create (P2P, or ecom with `build`), expects 201 and returns the stored record. */
async function create(body: Record<string, unknown>, headers: Record<string, string> = {}, endpoint = CREATE): Promise<TradeRecord> {
  const res = await t.post(endpoint, body, headers);
  expect(res.status, await res.clone().text()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  const record = t.sandbox.store.trades.get(id);
  if (!record) throw new Error(`trade ${id} not stored`);
  return record;
}

async function stateOf(id: string): Promise<string> {
  const res = await t.get(`/api/v1/trades/${DEMO.id}/${id}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { state: string }).state;
}

const lastHistory = (id: string) => t.sandbox.store.trades.get(id)?.history.at(-1);

describe('bundled outcome scenarios (manual clock)', () => {
  it.each([
    ['confirm', 'sbx-confirm-', 5_000, 'confirmed'],
    ['cancel', 'sbx-cancel-', 5_000, 'canceled'],
    ['expire', 'sbx-expire-', 15 * 60_000, 'expired'],
  ] as const)('%s: order %s… moves after its delay, cause "scenario"', async (name, prefix, after, final) => {
    const trade = await create(p2pBody({ order: nextOrder(`${prefix}order`) }));
    expect(trade.scenario).toBe(name);
    expect(await stateOf(trade.id)).toBe('created');

    await t.sandbox.scheduler.advance(after - 1);
    expect(await stateOf(trade.id)).toBe('created');

    await t.sandbox.scheduler.advance(1);
    expect(await stateOf(trade.id)).toBe(final);
    expect(lastHistory(trade.id)).toMatchObject({ from: 'created', to: final, cause: 'scenario', note: `scenario ${name}` });
  });

  it('runs through the admin clock route as a CI test would', async () => {
    const trade = await create(p2pBody({ order: nextOrder('sbx-confirm-ci') }));
    const advance = await t.post('/_sandbox/clock/advance', { by: '5s' });
    expect(advance.status).toBe(200);
    expect(((await advance.json()) as { ran: number }).ran).toBeGreaterThanOrEqual(1);
    expect(await stateOf(trade.id)).toBe('confirmed');
  });

  it('works for ecom trades too (build endpoint)', async () => {
    const trade = await create(ecomBody({ order: nextOrder('sbx-confirm-ecom') }), {}, BUILD);
    expect(trade.state).toBe('ecom');
    await t.sandbox.scheduler.advance(5_000);
    expect(await stateOf(trade.id)).toBe('confirmed');
    expect(lastHistory(trade.id)).toMatchObject({ from: 'ecom', to: 'confirmed', cause: 'scenario' });
  });

  it('names the matched scenario in the X-Sandbox-Scenario response header', async () => {
    const res = await t.post(CREATE, p2pBody({ order: nextOrder('sbx-cancel-h') }));
    expect(res.status).toBe(201);
    expect(res.headers.get('X-Sandbox-Scenario')).toBe('cancel');
  });
});

describe('bundled create-error scenarios', () => {
  it('reject: 422 envelope with the scenario code, nothing stored', async () => {
    const res = await t.post(CREATE, p2pBody({ order: nextOrder('sbx-reject-order') }));
    expect(res.status).toBe(422);
    expect(res.headers.get('X-Sandbox-Scenario')).toBe('reject');
    const error = await errorOf(res);
    expect(error).toMatchObject({ status: 422, code: 'trade_rejected', details: [] });
    expect(error.message).toMatch(/^The provider rejected this trade \(sandbox scenario "reject"/);
    expect(t.sandbox.store.trades.size).toBe(0);
    expect(t.sandbox.scheduler.pending()).toEqual([]);
  });

  it('unauthorized: 401 envelope although the token is right, nothing stored', async () => {
    const res = await t.post(BUILD, ecomBody({ order: nextOrder('sbx-unauth-order') }));
    expect(res.status).toBe(401);
    const error = await errorOf(res);
    expect(error).toMatchObject({ status: 401, code: 'access_denied' });
    expect(error.message).toContain('sandbox scenario "unauthorized"');
    expect(t.sandbox.store.trades.size).toBe(0);
  });

  it('slow: waits 10s (real time) before the trade exists, then answers 201 and the trade waits', async () => {
    let release!: () => void;
    const wait = vi.spyOn(t.sandbox.scenarios, 'wait').mockImplementation(() => new Promise<void>((resolve) => (release = resolve)));
    const answer = t.post(CREATE, p2pBody({ order: nextOrder('sbx-slow-order') }));
    await vi.waitFor(() => expect(wait).toHaveBeenCalledWith(10_000));
    expect(t.sandbox.store.trades.size).toBe(0);
    release();
    const res = await answer;
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    expect(t.sandbox.store.trades.get(id)?.scenario).toBe('slow');
    expect(t.sandbox.scheduler.pending()).toEqual([]);
  });

  it('slow: the real wait uses the wall clock, also with --clock manual', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      let done = false;
      const waiting = t.sandbox.scenarios.wait(10_000).then(() => (done = true));
      await vi.advanceTimersByTimeAsync(9_999);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await waiting;
      expect(done).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('bundled callback scenarios', () => {
  it.each([
    ['flaky-callbacks', 'sbx-flaky-', { fail_first: 2 }],
    ['duplicate-callback', 'sbx-dup-', { duplicate: true }],
    ['bad-signature-callback', 'sbx-badsig-', { bad_signature: true }],
  ] as const)('%s: order %s… is matched, carries its callback behaviour, and is confirmed after 5s', async (name, prefix, behaviour) => {
    const trade = await create(p2pBody({ order: nextOrder(`${prefix}order`) }));
    expect(trade.scenario).toBe(name);
    expect(t.sandbox.scenarios.get(trade.scenario)?.callbacks).toEqual(behaviour);
    await t.sandbox.scheduler.advance(5_000);
    expect(await stateOf(trade.id)).toBe('confirmed');
  });
});

describe('matching at create', () => {
  it('plain orders match no bundled scenario: the trade waits', async () => {
    for (const order of ['order-1001', nextOrder(), 'my-confirm-1', 'Confirm-1']) {
      const trade = await create(p2pBody({ order }));
      expect(trade.scenario).toBeUndefined();
    }
    expect(t.sandbox.scheduler.pending()).toEqual([]);
  });

  it('the X-Sandbox-Scenario header wins over the order', async () => {
    const trade = await create(p2pBody({ order: nextOrder('sbx-reject-but-header') }), { 'X-Sandbox-Scenario': 'confirm' });
    expect(trade.scenario).toBe('confirm');
    await t.sandbox.scheduler.advance(5_000);
    expect(await stateOf(trade.id)).toBe('confirmed');
  });

  it('an unknown header name is a 422 listing the known names; nothing stored', async () => {
    const res = await t.post(CREATE, p2pBody(), { 'X-Sandbox-Scenario': 'confirmd' });
    expect(res.status).toBe(422);
    const error = await errorOf(res);
    expect(error.code).toBe('unknown_scenario');
    expect(error.message).toContain(
      'Known scenarios: confirm, cancel, expire, reject, unauthorized, slow, lost-answer, late-answer, unavailable, flaky-callbacks, duplicate-callback, bad-signature-callback, overlapping-callbacks',
    );
    expect(t.sandbox.store.trades.size).toBe(0);
  });

  it('runs after authentication and validation', async () => {
    const unauthenticated = await t.post(CREATE, p2pBody({ order: nextOrder('sbx-reject-x') }), { 'X-Auth': 'wrong-token' });
    expect(unauthenticated.status).toBe(401);
    expect((await errorOf(unauthenticated)).code).not.toBe('trade_rejected');

    const invalid = await t.post(CREATE, p2pBody({ order: nextOrder('sbx-unauth-x'), amount_cents: 12.5 }), { 'X-Sandbox-Scenario': 'nope' });
    expect(invalid.status).toBe(422);
    expect((await errorOf(invalid)).code).toBe('validation_failed');
  });
});

describe('--scenarios folder', () => {
  function folder(files: Record<string, string>): string {
    const dir = folderIn(root);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return dir;
  }

  it('goes before the bundled scenarios', async () => {
    const dir = folder({
      'mine.yaml': [
        'scenarios:',
        '  - name: quick-confirm',
        '    description: Confirms my confirm- orders at once.',
        '    match: {order: "^sbx-confirm-"}',
        '    timeline: [{after: 1s, state: confirmed}]',
        '  - name: big-ecom-expires',
        '    description: Large ecom trades expire.',
        '    match: {type: ecom, amount: {min: 10000000}}',
        '    timeline: [{after: 1m, state: expired}]',
        '',
      ].join('\n'),
    });
    const custom = await makeSandbox({ clock: 'manual', scenarios: dir });
    try {
      const res = await custom.post(CREATE, p2pBody({ order: nextOrder('sbx-confirm-mine') }));
      const { id } = (await res.json()) as { id: string };
      expect(custom.sandbox.store.trades.get(id)?.scenario).toBe('quick-confirm');
      await custom.sandbox.scheduler.advance(1_000);
      expect(custom.sandbox.store.trades.get(id)?.state).toBe('confirmed');

      const big = await custom.post(BUILD, ecomBody({ amount_cents: 12_000_000 }));
      const bigId = ((await big.json()) as { id: string }).id;
      expect(custom.sandbox.store.trades.get(bigId)?.scenario).toBe('big-ecom-expires');

      expect(
        custom.sandbox.scenarios
          .list()
          .map((s) => s.name)
          .slice(0, 3),
      ).toEqual(['quick-confirm', 'big-ecom-expires', 'confirm']);
    } finally {
      await custom.close();
    }
  });

  it('a broken file stops createSandbox with its path, line and field', async () => {
    const dir = folder({ 'broken.yaml': 'scenarios:\n  - name: oops\n    description: d\n    timeline:\n      - after: 5s\n        state: paid\n' });
    await expect(createServer({ inMemory: true, scenarios: dir })).rejects.toThrow(
      `${join(dir, 'broken.yaml')}:6:16: scenarios[0].timeline[0].state: must be one of created, ecom, confirmed, canceled, expired; got "paid"`,
    );
  });

  it('a name used by a user file and a bundled file stops createSandbox naming both files', async () => {
    const dir = folder({ 'clash.yaml': 'scenarios:\n  - name: confirm\n    description: mine\n' });
    await expect(createServer({ inMemory: true, scenarios: dir })).rejects.toThrow(
      /scenarios\/10-outcomes\.yaml:\d+:1: scenarios\[0\]\.name: repeats the name "confirm" of the scenario at .*clash\.yaml:2/,
    );
  });
});

describe('restart', () => {
  it('a pending timeline step survives a restart of a file-backed sandbox', async () => {
    const data = folderIn(root);
    const first = await makeSandbox({ clock: 'manual', inMemory: false, data });
    const res = await first.post(CREATE, p2pBody({ order: nextOrder('sbx-confirm-restart') }));
    const { id } = (await res.json()) as { id: string };
    await first.close();

    const second = await makeSandbox({ clock: 'manual', inMemory: false, data });
    try {
      expect(second.sandbox.store.trades.get(id)?.state).toBe('created');
      await second.sandbox.scheduler.advance(5_000);
      expect(second.sandbox.store.trades.get(id)?.state).toBe('confirmed');
    } finally {
      await second.close();
    }
  });
});
