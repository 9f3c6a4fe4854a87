/**
 * The integration report's counts and coverage outlive a restart of a durable sandbox
 * (`serve --data`, here startSandbox({ data })): stopped and started again on the same folder, it
 * reports, and the go-live checklist shows, exactly what it did before. A reset keeps them.
 */
import { afterEach, describe, expect } from 'vitest';
import { startSandbox, type RunningSandbox } from '../src/index.js';
import { startReceiver, type Receiver } from './callbacks-receiver.js';
import { DEMO } from './merchants.js';
import { p2pBody } from './support.js';
import { it } from './temp-folder.js';

let sandbox: RunningSandbox | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  await receiver?.close();
});

const create = (body: Record<string, unknown>, token: string = DEMO.token) =>
  fetch(`${sandbox!.url}/api/v1/trades/deposit/create`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': token }, body: JSON.stringify(body) });

describe('the integration report after a restart', () => {
  it('a durable sandbox stopped and started again reports the same counts and coverage, and go-live the same checklist', async ({ folder }) => {
    receiver = await startReceiver();
    sandbox = await startSandbox({ data: folder, clock: 'manual' });
    // Mistakes: a wrong token, an invalid field, an order used twice; coverage: a create, a 401 asked for, a confirmed callback acknowledged.
    expect((await create(p2pBody(), 'not-the-token')).status).toBe(401);
    expect((await create(p2pBody({ amount_cents: -5 }))).status).toBe(422);
    const order = 'restart-order-1';
    expect((await create(p2pBody({ order, callback_url: `${receiver.url}/callback` }))).status).toBe(201);
    expect((await create(p2pBody({ order }))).status).toBe(422);
    expect((await create(p2pBody({ order: 'sbx-unauth-restart' }))).status).toBe(401);
    const [trade] = (await sandbox.admin.trades({ order })).trades;
    await sandbox.admin.transition(trade!.id, 'confirmed');
    await sandbox.callbacks.waitFor({ trade: trade!.id, state: 'confirmed' });
    const before = await sandbox.admin.report();
    const checklist = await sandbox.admin.goLive();
    // What the test made: without these, an empty report after the restart would pass too.
    expect(before.total).toBe(3);
    expect(before.coverage[0]?.rows.find((row) => row.id === 'callback.confirmed')?.status).toBe('handled');
    expect(checklist.counts.met).toBeGreaterThanOrEqual(4);
    await sandbox.close();

    sandbox = await startSandbox({ data: folder, clock: 'manual' });
    expect(await sandbox.admin.report()).toEqual(before);
    expect(await sandbox.admin.goLive()).toEqual(checklist);
    // A reset empties the trades, not the report (as without a restart).
    await sandbox.admin.reset();
    expect(await sandbox.admin.report()).toEqual(before);
    // Clearing it is the way to a fresh report, and the empty report is what the store keeps.
    expect(await sandbox.admin.clearReport()).toEqual({ status: 'cleared', merchants: 1 });
    const cleared = await sandbox.admin.report();
    expect(cleared).toMatchObject({ total: 0, merchants: [] });
    expect(cleared.coverage.flatMap((merchant) => merchant.rows).filter((row) => row.status !== 'not_seen')).toEqual([]);
    await sandbox.close();
    sandbox = await startSandbox({ data: folder, clock: 'manual' });
    expect(await sandbox.admin.report()).toEqual(cleared);
  });

  it('a change made after the restart is counted on top of the kept counts, and kept too', async ({ folder }) => {
    sandbox = await startSandbox({ data: folder });
    expect((await create(p2pBody(), 'not-the-token')).status).toBe(401);
    await sandbox.close();
    sandbox = await startSandbox({ data: folder });
    expect((await create(p2pBody(), 'not-the-token')).status).toBe(401);
    await sandbox.close();
    sandbox = await startSandbox({ data: folder });
    expect((await sandbox.admin.report()).merchants).toMatchObject([{ merchant: DEMO.id, total: 2, unauthorized: [{ cause: 'signature_mismatch', count: 2 }] }]);
  });
});
