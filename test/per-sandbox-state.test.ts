/**
 * No state shared by accident: what a sandbox caches is its own, so two sandboxes in one process
 * (two startSandbox() in one test run, or the default sandbox and its workspaces) never see each
 * other's. What stays process-wide on purpose is listed, with why, in docs/architecture.md.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../src/app.js';
import { createServer } from '../src/server/server.js';
import { DEMO, p2pBody } from './support.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function seeded() {
  const sandboxServer = await createServer({ inMemory: true, seed: 7, clock: 'manual' });
  const sandbox = sandboxServer.root;
  cleanup.push(() => sandboxServer.close());
  const app = createApp(sandboxServer);
  const created = await app.request('/api/v1/trades/deposit/create', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token },
    body: JSON.stringify(p2pBody({ order: `state-${sandbox.options.seed}`, amount_cents: 100 })),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const poll = async () => {
    const res = await app.request(`/api/v1/trades/${DEMO.id}/${id}`, { headers: { 'X-Token': DEMO.token } });
    expect(res.status).toBe(200);
    return (await res.json()) as { id: string; amount_cents: number };
  };
  return { sandbox, id, poll };
}

describe('per-sandbox caches', () => {
  it("two sandboxes that drew the same trade id keep their own JSON text of it: one's polling does not replace the other's", async () => {
    const first = await seeded();
    const second = await seeded();
    expect(second.id).toBe(first.id); // the same --seed: the same ids
    expect(second.sandbox.tradeJson).not.toBe(first.sandbox.tradeJson);
    await first.poll();
    await first.poll(); // polled: its text is kept
    await second.poll();
    await second.poll();
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      await first.poll();
      // Its text was still there: the other sandbox's polls of the same id did not take the entry.
      expect(stringify).not.toHaveBeenCalled();
    } finally {
      stringify.mockRestore();
    }
  });

  it('a workspace has its own trade-JSON cache, clock and id source', async () => {
    const sandboxServer = await createServer({ inMemory: true });
    const sandbox = sandboxServer.root;
    cleanup.push(() => sandboxServer.close());
    const opened = await sandboxServer.workspaces.open('qa-1');
    if (!opened.ok) throw new Error(opened.message);
    expect(opened.sandbox.tradeJson).not.toBe(sandbox.tradeJson);
    expect(opened.sandbox.clock).not.toBe(sandbox.clock);
    expect(opened.sandbox.random.uuid).not.toBe(sandbox.random.uuid);
  });
});
