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

  describe('while the store cannot write (a full disk)', () => {
    /** A store whose writes fail while `disk.full` (each write takes a turn of the event loop), with keepReport's delayed writes held in `due`. */
    async function fullDisk() {
      const disk = { full: true };
      const writes: string[][] = [];
      const adapter: StoreAdapter = {
        location: 'memory',
        read: async () => null,
        write: async (changes) => {
          writes.push(changes.map((change) => (change.op === 'put' ? `${change.table}:${change.record.id}` : change.op)));
          const started = disk.full;
          await new Promise((resolve) => setImmediate(resolve));
          if (started) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        },
      };
      const store = await Store.open(adapter);
      const counter = new MistakeCounter();
      const due: Array<{ run: () => void; ms: number }> = [];
      keepReport(
        store,
        counter,
        () => undefined,
        (run, ms) => {
          due.push({ run, ms });
          return () => undefined;
        },
      );
      store.meta.put({ id: 'first' });
      await expect(store.commit()).rejects.toMatchObject({ kind: 'full' });
      return { disk, writes, store, counter, due };
    }
    const turn = () => new Promise((resolve) => setImmediate(resolve));

    it('while writes fail, a change of the counts writes nothing at once (the next write holds the other change alone); their retry writes them', async () => {
      const { disk, writes, store, counter, due } = await fullDisk();
      counter.cover(M, 'create.accepted', 'seen');
      expect(due.map((d) => d.ms)).toEqual([250]);
      due.shift()!.run();
      // The write of the counts waits for a retry instead of starting now.
      expect(due.map((d) => d.ms)).toEqual([5_000]);
      // A turn later a write of the counts would be under way; then space is freed and a change is made.
      await turn();
      disk.full = false;
      store.meta.put({ id: 'second' });
      await expect(store.commit()).resolves.toBeUndefined();
      expect(writes).toEqual([['meta:first'], ['meta:second']]);

      due.shift()!.run();
      await store.commit();
      expect(writes.at(-1)).toEqual(['meta:report']);
      expect(due).toEqual([]);
    });

    it('when nothing else writes, the retry writes the counts once there is room, and tries again while there is none', async () => {
      const { disk, writes, store, counter, due } = await fullDisk();
      counter.cover(M, 'create.accepted', 'seen');
      due.shift()!.run();
      due.shift()!.run();
      await expect(store.commit()).rejects.toMatchObject({ kind: 'full' });
      await turn();
      expect(writes.at(-1)).toEqual(['meta:report']);
      expect(due.map((d) => d.ms)).toEqual([5_000]);

      disk.full = false;
      due.shift()!.run();
      await store.commit();
      expect(writes.at(-1)).toEqual(['meta:report']);
      expect(writes).toHaveLength(3);
      expect(store.failing).toBeUndefined();
      expect(due).toEqual([]);
    });
  });

  it('after flush(), a change of the counts schedules no write (the store is closing)', async () => {
    const { adapter, writes } = watchedAdapter();
    const store = await Store.open(adapter);
    const counter = new MistakeCounter();
    const due: number[] = [];
    const kept = keepReport(
      store,
      counter,
      () => undefined,
      (_run, ms) => {
        due.push(ms);
        return () => undefined;
      },
    );
    counter.cover(M, 'create.accepted', 'seen');
    await kept.flush();
    expect(writes).toHaveLength(1);
    expect(due).toEqual([250]);
    counter.callback(M, 'timed_out');
    expect(due).toEqual([250]);
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
