import { describe, expect, it, vi } from 'vitest';
import type { StoreAdapter } from './adapter.js';
import { DataFolderRefusedError, Store } from './store.js';
import type { Change } from './table.js';

/** An adapter over a fixed document whose writes take `delayMs` and are recorded. */
function recording(document: unknown = null, delayMs = 5) {
  const writes: Change[][] = [];
  const adapter: StoreAdapter = {
    location: 'test://store',
    read: async () => document,
    write: async (changes) => {
      writes.push([...changes]);
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    },
  };
  return { adapter, writes };
}

const realSetImmediate = setImmediate;

const job = (n: number) => ({ id: `job-${n}`, due: n, seq: n, kind: 'transition', data: {} });

describe('Store', () => {
  it('group commit: changes made in the same turn share one write, and so do changes made while it is in flight', async () => {
    const { adapter, writes } = recording();
    const store = await Store.open(adapter);
    const commits: Array<Promise<void>> = [];
    for (let n = 0; n < 50; n++) {
      store.jobs.put(job(n));
      commits.push(store.commit());
    }
    // The write has not started yet: everything made in this turn joins it.
    expect(writes).toHaveLength(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes.map((w) => w.length)).toEqual([50]);
    for (let n = 50; n < 60; n++) {
      store.jobs.put(job(n));
      commits.push(store.commit());
    }
    await Promise.all(commits);
    expect(writes.map((w) => w.length)).toEqual([50, 10]);
    expect(await store.commit()).toBeUndefined();
    expect(writes).toHaveLength(2);
  });

  it('commit() keeps working under fake timers (it uses the real setImmediate)', async () => {
    const { adapter, writes } = recording(null, 0);
    const store = await Store.open(adapter);
    vi.useFakeTimers({ toFake: ['setImmediate', 'setTimeout'] });
    try {
      store.jobs.put(job(1));
      const committed = store.commit();
      await new Promise((resolve) => realSetImmediate(resolve));
      expect(writes).toHaveLength(1);
      await committed;
    } finally {
      vi.useRealTimers();
    }
  });

  it('commit() resolves only after the write holding its changes is done', async () => {
    const { adapter, writes } = recording(null, 20);
    const store = await Store.open(adapter);
    store.jobs.put(job(1));
    const first = store.commit();
    store.jobs.put(job(2));
    await store.commit();
    await first;
    expect(writes.flat().map((change) => (change.op === 'put' ? change.record.id : change.op))).toEqual(['job-1', 'job-2']);
  });

  it('loads a whole document from an adapter without load()', async () => {
    const { adapter } = recording({ version: 1, jobs: [job(1), job(2)], meta: [{ id: 'clock', offset: 3 }] });
    const store = await Store.open(adapter);
    expect(store.snapshot()).toEqual({ version: 1, trades: [], jobs: [job(1), job(2)], callbacks: [], meta: [{ id: 'clock', offset: 3 }] });
  });

  it('refuses data of another shape, naming at most five problems with their paths', async () => {
    const { adapter } = recording({ version: 1, jobs: Array.from({ length: 9 }, (_, n) => ({ ...job(n), due: 'soon' })) });
    const error = (await Store.open(adapter).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(DataFolderRefusedError);
    expect(error.message).toMatch(/^The store at test:\/\/store is not a deposit-sandbox store \(jobs\[0\]\.due: .*; jobs\[4\]\.due: [^;]*\)\. Move the file away/);
    expect(error.message).not.toContain('jobs[5]');
  });

  it('an adapter that fails to read is reported as a store that cannot be loaded', async () => {
    const adapter: StoreAdapter = { location: 'test://broken', read: () => Promise.reject(new Error('disk on fire')), write: async () => undefined };
    await expect(Store.open(adapter)).rejects.toThrow('The store at test://broken cannot be loaded: disk on fire.');
  });
});
