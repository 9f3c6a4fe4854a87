import { describe, expect, it } from 'vitest';
import type { StoreAdapter } from '../store/adapter.js';
import { Store } from '../store/store.js';
import type { Change } from '../store/table.js';
import { keepReport } from './keep-report.js';
import { MistakeCounter } from './mistake-counter.js';

const M = '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51';

/** A memory adapter that tells each write, so a test waits for the event and not for a time. */
function watchedAdapter(read: unknown = null) {
  const writes: Change[][] = [];
  let waiter: (() => void) | undefined;
  const adapter: StoreAdapter = {
    location: 'memory',
    read: async () => read,
    write: async (changes) => {
      writes.push([...changes]);
      waiter?.();
    },
  };
  const nextWrite = () => new Promise<void>((resolve) => (waiter = resolve));
  return { adapter, writes, nextWrite };
}

describe('keepReport', () => {
  it('writes the counts once after a burst of changes, and a new counter on that store starts from them', async () => {
    const { adapter, writes, nextWrite } = watchedAdapter();
    const store = await Store.open(adapter);
    const counter = new MistakeCounter();
    keepReport(store, counter, () => undefined);
    const written = nextWrite();
    counter.cover(M, 'create.accepted', 'seen');
    counter.refused(M, { status: 401, code: 'invalid_token', fields: [], order: undefined, create: true, forced: false });
    counter.refused(M, { status: 401, code: 'invalid_token', fields: [], order: undefined, create: true, forced: false });
    await written;
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject([{ op: 'put', table: 'meta', record: { id: 'report' } }]);

    const again = new MistakeCounter();
    keepReport(store, again, () => undefined);
    expect(again.report(() => 'Demo Shop')).toEqual(counter.report(() => 'Demo Shop'));
    expect(again.report().merchants).toMatchObject([{ merchant: M, unauthorized: [{ cause: 'invalid_token', count: 2 }] }]);
  });

  it('writes nothing while the store cannot write, so a change made once the disk has room again is not refused with the counts', async () => {
    let full = true;
    const writes: string[][] = [];
    const adapter: StoreAdapter = {
      location: 'memory',
      read: async () => null,
      // A write takes a turn of the event loop; one that starts while the disk is full fails.
      write: async (changes) => {
        writes.push(changes.map((change) => (change.op === 'put' ? `${change.table}:${change.record.id}` : change.op)));
        const started = full;
        await new Promise((resolve) => setImmediate(resolve));
        if (started) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      },
    };
    const store = await Store.open(adapter);
    const counter = new MistakeCounter();
    const due: Array<() => void> = [];
    keepReport(
      store,
      counter,
      () => undefined,
      (run) => {
        due.push(run);
        return () => undefined;
      },
    );

    store.meta.put({ id: 'first' });
    await expect(store.commit()).rejects.toMatchObject({ kind: 'full' });
    // The counts change while the disk is full, and their delayed write comes due.
    counter.cover(M, 'create.accepted', 'seen');
    due.shift()?.();
    // A turn later, a write of the counts would be under way; then space is freed and a change is made.
    await new Promise((resolve) => setImmediate(resolve));
    full = false;
    store.meta.put({ id: 'second' });
    await expect(store.commit()).resolves.toBeUndefined();
    expect(writes).toEqual([['meta:first'], ['meta:second']]);

    // The first change of the counts once writes work again writes them.
    counter.refused(M, { status: 401, code: 'invalid_token', fields: [], order: undefined, create: true, forced: false });
    due.shift()?.();
    await store.commit();
    expect(writes.at(-1)).toEqual(['meta:report']);
  });

  it('sets aside counts it cannot read, with a line, and starts empty', async () => {
    const { adapter } = watchedAdapter({ version: 1, meta: [{ id: 'report', counts: { version: 99 } }] });
    const store = await Store.open(adapter);
    const lines: string[] = [];
    const counter = new MistakeCounter();
    keepReport(store, counter, (line) => lines.push(line));
    expect(counter.empty).toBe(true);
    expect(lines).toEqual([expect.stringMatching(/^the integration report counts kept in this workspace's store do not read \(.+\); the report starts empty$/)]);
  });
});

describe('MistakeCounter.onChange', () => {
  it('is told of the first accepted create, never of the creates and reads that change nothing', () => {
    const counter = new MistakeCounter();
    let told = 0;
    counter.onChange(() => told++);
    for (let i = 0; i < 100; i++) counter.created(M, `order-${i}`, undefined);
    for (let i = 0; i < 60; i++) counter.read(M, 'trade', i);
    expect(told).toBe(1);
    counter.callback(M, 'timed_out');
    expect(told).toBe(2);
  });
});
