/**
 * startSandbox(): a sandbox in the test process on a free port, its admin helpers over real
 * HTTP on 127.0.0.1, and callbacks.waitFor on the in-process dispatcher.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, vi } from 'vitest';
import { it } from './temp-folder.js';
import { AdminClientError, startSandbox, type RunningSandbox } from '../src/index.js';
import { CLOSED_PORT, startReceiver, type Receiver } from './callbacks-receiver.js';
import { DEMO, p2pBody } from './support.js';

const running: Array<RunningSandbox | Receiver> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

async function start(options: Parameters<typeof startSandbox>[0] = {}): Promise<RunningSandbox> {
  const sandbox = await startSandbox(options);
  running.push(sandbox);
  return sandbox;
}

async function receiver(status = 200): Promise<Receiver> {
  const r = await startReceiver((_request, res) => void res.writeHead(status).end(status === 200 ? 'ok' : 'nope'));
  running.push(r);
  return r;
}

async function create(sandbox: { url: string }, overrides: Record<string, unknown> = {}): Promise<{ id: string; order: string }> {
  const res = await fetch(`${sandbox.url}/api/v1/trades/deposit/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token },
    body: JSON.stringify(p2pBody(overrides)),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; order: string };
}

describe('startSandbox()', () => {
  it('listens on a free port of 127.0.0.1 with an in-memory store, and close() stops it (twice is fine)', async () => {
    const sandbox = await startSandbox();
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.url).not.toBe('http://127.0.0.1:4242');
    expect(await sandbox.admin.health()).toMatchObject({ status: 'ok', store: 'memory', auth: 'either', clock: { mode: 'real' } });
    expect(sandbox.merchants[0]).toMatchObject({ id: DEMO.id, token: DEMO.token, secret: DEMO.secret });
    const trade = await create(sandbox);
    expect((await sandbox.admin.trade(trade.id)).trade.state).toBe('created');
    await Promise.all([sandbox.close(), sandbox.close()]);
    await expect(fetch(`${sandbox.url}/_sandbox/health`)).rejects.toThrow();
  });

  it('takes the same options as the CLI; with data it keeps a file store', async ({ folder: data }) => {
    const sandbox = await start({ data, auth: 'signature', clock: 'manual', seed: 7 });
    expect(await sandbox.admin.health()).toMatchObject({ store: join(data, 'db.json'), auth: 'signature', clock: { mode: 'manual' } });
  });

  it('with fsync: true keeps a file store across a restart, and refuses fsync without data', async ({ folder: data }) => {
    const first = await startSandbox({ data, fsync: true });
    const trade = await create(first);
    await first.close();
    const second = await start({ data, fsync: true });
    expect((await second.admin.trade(trade.id)).trade.order).toBe(trade.order);
    await expect(startSandbox({ fsync: true })).rejects.toThrow('--fsync: needs a data folder');
  });

  it('with fsync: true holds the data folder like any file store: a second sandbox on it is refused, naming the holder', async ({ folder: data }) => {
    const first = await start({ data, fsync: true });
    await expect(startSandbox({ data })).rejects.toThrow(new RegExp(`is in use by another deposit-sandbox \\(process ${process.pid}, listening on`));
    await expect(startSandbox({ data, fsync: true })).rejects.toThrow(new RegExp(`is in use by another deposit-sandbox \\(process ${process.pid}, listening on`));
    // Its workspaces store as it does: a trade created in one survives the restart too.
    const workspace = first.workspace('fsync-w1');
    const trade = await create(workspace);
    await first.close();
    const second = await start({ data, fsync: true });
    expect((await second.workspace('fsync-w1').admin.trade(trade.id)).trade.order).toBe(trade.order);
  });

  it('names the port when it is taken', async () => {
    const first = await start();
    const port = Number(new URL(first.url).port);
    await expect(startSandbox({ port })).rejects.toThrow(`Port ${port} on 127.0.0.1 is already in use. Leave the port out (0 picks a free one), or stop the other process.`);
  });

  it('refuses bad options with the option named', async () => {
    await expect(startSandbox({ auth: 'nope' as 'off' })).rejects.toThrow('--auth: must be one of token, signature, either, off');
  });
});

describe('admin helpers', () => {
  it('list, read, move, replay and reset trades, with typed answers', async () => {
    const sandbox = await start();
    const r = await receiver();
    const trade = await create(sandbox, { callback_url: `${r.url}/cb` });
    const other = await create(sandbox);

    const moved = await sandbox.admin.transition(trade.id, 'confirmed', 'paid by test');
    expect(moved).toMatchObject({ id: trade.id, state: 'confirmed', allowed: [], callback_url: `${r.url}/cb` });

    const { trades, total } = await sandbox.admin.trades({ state: 'created' });
    expect(total).toBe(1);
    expect(trades.map((t) => t.id)).toEqual([other.id]);

    const delivered = await sandbox.callbacks.waitFor({ trade: trade.id, state: 'confirmed' });
    const detail = await sandbox.admin.trade(trade.id);
    expect(detail.history.at(-1)).toMatchObject({ from: 'created', to: 'confirmed', cause: 'admin', note: 'paid by test' });
    expect(detail.callbacks.map((c) => c.id)).toEqual([delivered.id]);

    expect((await sandbox.admin.callbacks({ trade: trade.id })).map((c) => c.status)).toEqual(['delivered']);
    const replay = await sandbox.admin.replay(delivered.id);
    expect(replay).toMatchObject({ replay_of: delivered.id, trade: trade.id, state: 'confirmed' });
    const again = await sandbox.callbacks.waitFor({ replay_of: delivered.id });
    expect(again.id).toBe(replay.id);
    expect(r.received).toHaveLength(2);
    expect(r.received[1]!.body).toBe(r.received[0]!.body);

    expect(await sandbox.admin.reset()).toEqual({ status: 'reset', removed: { trades: 2, callbacks: 2, jobs: 0 } });
    expect(await sandbox.admin.trades()).toEqual({ trades: [], total: 0 });
  });

  it('advances a manual clock, which runs a scenario timeline', async () => {
    const sandbox = await start({ clock: 'manual' });
    const trade = await create(sandbox, { order: `sbx-confirm-${Date.now()}` });
    expect((await sandbox.admin.clock()).pending).toBe(1);
    const { ran } = await sandbox.admin.advanceClock('5s');
    expect(ran).toBe(1);
    expect((await sandbox.admin.trade(trade.id)).trade.state).toBe('confirmed');
    expect((await sandbox.admin.scenarios()).map((s) => s.name)).toContain('confirm');
  });

  it('rejects with an AdminClientError carrying the status, code and envelope', async () => {
    const sandbox = await start();
    const trade = await create(sandbox);
    await sandbox.admin.transition(trade.id, 'expired');
    const error = await sandbox.admin.transition(trade.id, 'confirmed').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AdminClientError);
    expect(error).toMatchObject({ status: 409, code: 'transition_not_allowed', envelope: { error: { allowed: [] } } });
    expect((error as Error).message).toBe(`Trade ${trade.id} is expired, a final state: it cannot move to confirmed. (allowed now: none, the state is final)`);
    await expect(sandbox.admin.trade('nope')).rejects.toMatchObject({ status: 404, code: 'not_found' });
    await expect(sandbox.admin.advanceClock('soon')).rejects.toMatchObject({ status: 422, code: 'validation_failed' });
  });

  it('sends the admin token when the sandbox has one', async () => {
    const sandbox = await start({ adminToken: 'test-admin-token' });
    expect((await fetch(`${sandbox.url}/_sandbox/trades`)).status).toBe(401);
    expect(await sandbox.admin.trades()).toEqual({ trades: [], total: 0 });
  });
});

describe('callbacks.waitFor', () => {
  it('resolves on the delivery without polling the network, and with includePast on one that came before the call', async () => {
    const sandbox = await start();
    const r = await receiver();
    const trade = await create(sandbox, { callback_url: `${r.url}/cb` });
    const fetches = vi.spyOn(globalThis, 'fetch');
    try {
      const waiting = sandbox.callbacks.waitFor((event) => event.trade === trade.id);
      await sandbox.admin.transition(trade.id, 'confirmed');
      const event = await waiting;
      expect(event).toMatchObject({ trade: trade.id, state: 'confirmed', status: 'delivered', url: `${r.url}/cb` });
      // The transition was the only request: waitFor itself sent none.
      expect(fetches.mock.calls.map(([url]) => String(url))).toEqual([`${sandbox.url}/_sandbox/trades/${trade.id}/transition`]);
    } finally {
      fetches.mockRestore();
    }
    // Delivered already: found at once; with includePast: false only a new one counts.
    expect((await sandbox.callbacks.waitFor({ trade: trade.id })).id).toBe(`cb_${trade.id}_1`);
    await expect(sandbox.callbacks.waitFor({ trade: trade.id }, { includePast: false, timeout: 50 })).rejects.toThrow('waitFor timed out after 50 ms');
  });

  it('waits for a failed callback with status: "failed"', async () => {
    const sandbox = await start({ callbackRetries: [] });
    const r = await receiver(500);
    const trade = await create(sandbox, { callback_url: r.url });
    await sandbox.admin.transition(trade.id, 'canceled');
    const failed = await sandbox.callbacks.waitFor({ trade: trade.id }, { status: 'failed' });
    expect(failed).toMatchObject({ status: 'failed', state: 'canceled' });
    expect(failed.attempts[0]).toMatchObject({ status: 500 });
  });

  it('says on timeout what it waited for and which callbacks exist, with the last attempt of each', async () => {
    const sandbox = await start({ callbackRetries: ['1h'] });
    const port = CLOSED_PORT;
    const trade = await create(sandbox, { callback_url: `http://127.0.0.1:${port}/cb` });
    await sandbox.admin.transition(trade.id, 'confirmed');
    // The first attempt is logged once the connection is refused; the next one is an hour away.
    await vi.waitFor(async () => expect((await sandbox.admin.callback(`cb_${trade.id}_1`)).attempts).toHaveLength(1), { timeout: 5_000, interval: 20 });
    const error = (await sandbox.callbacks.waitFor({ trade: trade.id, state: 'confirmed' }, { timeout: 20 }).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(
      [
        `waitFor timed out after 20 ms waiting for a delivered callback with trade "${trade.id}" and state "confirmed".`,
        `1 callback of trade ${trade.id}:`,
        `  cb_${trade.id}_1 confirmed pending -> http://127.0.0.1:${port}/cb (1 attempt; last: no answer Connection refused by 127.0.0.1:${port}: nothing is listening there. Start the receiver, or fix the port in callback_url.)`,
        'A callback is still pending: its attempts above say why it is not delivered yet.',
      ].join('\n'),
    );
  });

  it('says when no callback was queued at all, and when a manual clock holds steps back', async () => {
    const sandbox = await start({ clock: 'manual' });
    await create(sandbox, { order: `sbx-confirm-${Date.now()}` });
    const error = (await sandbox.callbacks.waitFor({ state: 'confirmed' }, { timeout: 10 }).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('waitFor timed out after 10 ms waiting for a delivered callback with state "confirmed".');
    expect(error.message).toContain('No callback has been queued at all. A callback is sent when a trade that has a callback_url changes state');
    expect(error.message).toContain('The sandbox clock is manual and steps are waiting for it: call admin.advanceClock("…")');
  });

  it('rejects when the predicate throws, and when the sandbox closes while waiting', async () => {
    const sandbox = await startSandbox();
    const r = await receiver();
    const trade = await create(sandbox, { callback_url: r.url });
    const throwing = expect(
      sandbox.callbacks.waitFor(() => {
        throw new Error('boom');
      }),
    ).rejects.toThrow(`waitFor: the predicate threw on callback cb_${trade.id}_1: boom`);
    await sandbox.admin.transition(trade.id, 'confirmed');
    await throwing;
    const pending = expect(sandbox.callbacks.waitFor({ state: 'expired' }, { timeout: 60_000 })).rejects.toThrow('The sandbox was closed while waitFor was waiting for a callback.');
    await sandbox.close();
    await pending;
  });
});
