import { describe, expect, it, vi } from 'vitest';
import { MemoryAdapter, type StoreAdapter } from '../store/adapter.js';
import { Store } from '../store/store.js';
import type { Change } from '../store/table.js';
import { Clock } from './clock.js';
import type { Job } from '../store/jobs.js';
import { Scheduler } from './scheduler.js';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

async function setup(store?: Store) {
  const s = store ?? (await Store.open(new MemoryAdapter()));
  const clock = new Clock('manual', s, () => T0);
  const errors: unknown[] = [];
  const scheduler = new Scheduler(s, clock, (error) => errors.push(error));
  const ran: string[] = [];
  scheduler.handle('note', (job) => {
    ran.push(`${String(job.data['name'])}@${clock.now() - T0}`);
  });
  await scheduler.start();
  return { store: s, clock, scheduler, ran, errors };
}

describe('Scheduler', () => {
  it('runs nothing before its time with a manual clock', async () => {
    const { scheduler, ran } = await setup();
    scheduler.schedule('note', T0 + 1_000, { name: 'a' });
    await scheduler.runDue();
    expect(ran).toEqual([]);
    expect(scheduler.pending()).toHaveLength(1);
  });

  it('advance runs due jobs in due order, each at its own time, then sets the clock to the target', async () => {
    const { scheduler, ran, clock } = await setup();
    scheduler.schedule('note', T0 + 3_000, { name: 'c' });
    scheduler.schedule('note', T0 + 1_000, { name: 'a' });
    scheduler.schedule('note', T0 + 2_000, { name: 'b' });
    scheduler.schedule('note', T0 + 9_000, { name: 'late' });
    const result = await scheduler.advance(5_000);
    expect(ran).toEqual(['a@1000', 'b@2000', 'c@3000']);
    expect(result.ran).toBe(3);
    expect(clock.now()).toBe(T0 + 5_000);
    expect(scheduler.pending().map((job) => job.data['name'])).toEqual(['late']);
  });

  it('jobs due at the same time run in the order they were scheduled', async () => {
    const { scheduler, ran } = await setup();
    for (const name of ['first', 'second', 'third']) scheduler.schedule('note', T0 + 1_000, { name }, 'trade-1');
    await scheduler.advance(1_000);
    expect(ran).toEqual(['first@1000', 'second@1000', 'third@1000']);
  });

  it('runs jobs scheduled by earlier jobs when they fall inside the advanced window', async () => {
    const { scheduler, ran, clock } = await setup();
    scheduler.handle('retry', (job) => {
      const n = Number(job.data['n']);
      ran.push(`retry${n}@${clock.now() - T0}`);
      if (n < 3) scheduler.schedule('retry', clock.now() + 1_000 * 2 ** n, { n: n + 1 });
    });
    scheduler.schedule('retry', T0 + 1_000, { n: 1 });
    await scheduler.advance(60_000);
    expect(ran).toEqual(['retry1@1000', 'retry2@3000', 'retry3@7000']);
  });

  it('one trade runs one job at a time; other trades run alongside', async () => {
    const { scheduler } = await setup();
    const log: string[] = [];
    let releaseA!: () => void;
    const holdA = new Promise<void>((resolve) => (releaseA = resolve));
    let bEnded!: () => void;
    const bDone = new Promise<void>((resolve) => (bEnded = resolve));
    scheduler.handle('slow', async (job) => {
      log.push(`start ${job.data['name']}`);
      if (job.data['name'] === 'a1') await holdA;
      log.push(`end ${job.data['name']}`);
      if (job.data['name'] === 'b1') bEnded();
    });
    scheduler.schedule('slow', T0 + 10, { name: 'a1' }, 'A');
    scheduler.schedule('slow', T0 + 10, { name: 'a2' }, 'A');
    scheduler.schedule('slow', T0 + 10, { name: 'b1' }, 'B');
    const advancing = scheduler.advance(10);
    await bDone;
    expect(log).toEqual(['start a1', 'start b1', 'end b1']);
    releaseA();
    await advancing;
    expect(log).toEqual(['start a1', 'start b1', 'end b1', 'end a1', 'start a2', 'end a2']);
  });

  it('a failing handler is reported and does not stop the others', async () => {
    const { scheduler, ran, errors } = await setup();
    scheduler.handle('boom', () => {
      throw new Error('kaput');
    });
    scheduler.schedule('boom', T0 + 1);
    scheduler.schedule('note', T0 + 2, { name: 'after' });
    await scheduler.advance(5);
    expect(errors).toHaveLength(1);
    expect(ran).toEqual(['after@2']);
    expect(scheduler.pending()).toEqual([]);
  });

  it('jobs already due run without an advance', async () => {
    const { scheduler, ran } = await setup();
    scheduler.schedule('note', T0, { name: 'now' });
    await new Promise((resolve) => setImmediate(resolve));
    await scheduler.idle();
    expect(ran).toEqual(['now@0']);
  });

  it('with a real clock a timer runs each job at its time, whether it falls before or after the one armed', async () => {
    vi.useFakeTimers();
    try {
      let wall = T0;
      const store = await Store.open(new MemoryAdapter());
      const clock = new Clock('real', store, () => wall);
      const scheduler = new Scheduler(store, clock);
      const ran: string[] = [];
      scheduler.handle('note', (job) => {
        ran.push(`${String(job.data['name'])}@${clock.now() - T0}`);
      });
      await scheduler.start();
      scheduler.schedule('note', T0 + 200, { name: 'b' });
      scheduler.schedule('note', T0 + 500, { name: 'c' }); // later than the timer already set
      scheduler.schedule('note', T0 + 50, { name: 'a' }); // earlier: the timer moves forward
      const pass = async (ms: number) => {
        wall += ms;
        await vi.advanceTimersByTimeAsync(ms);
        await scheduler.idle();
      };
      await pass(49);
      expect(ran).toEqual([]);
      await pass(1);
      expect(ran).toEqual(['a@50']);
      await pass(150);
      expect(ran).toEqual(['a@50', 'b@200']);
      scheduler.schedule('note', T0 + 200, { name: 'now' }); // already due: runs on the next turn
      await pass(0);
      expect(ran).toEqual(['a@50', 'b@200', 'now@200']);
      await pass(300);
      expect(ran).toEqual(['a@50', 'b@200', 'now@200', 'c@500']);
      expect(scheduler.pending()).toEqual([]);
      scheduler.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('rejects a negative or non-finite advance', async () => {
    const { scheduler } = await setup();
    await expect(scheduler.advance(-5)).rejects.toThrow(RangeError);
    await expect(scheduler.advance(Number.POSITIVE_INFINITY)).rejects.toThrow(RangeError);
  });

  it('pending jobs survive a restart over the same persisted data, and run in order', async () => {
    const persisted: { data: unknown } = { data: null };
    const adapter: StoreAdapter = {
      location: 'test',
      read: async () => persisted.data,
      write: async (_changes: readonly Change[], snapshot: () => unknown) => {
        persisted.data = structuredClone(snapshot());
      },
    };
    const first = await setup(await Store.open(adapter));
    first.scheduler.schedule('note', T0 + 2_000, { name: 'two' });
    first.scheduler.schedule('note', T0 + 1_000, { name: 'one' });
    await first.store.commit();
    first.scheduler.stop();

    const second = await setup(await Store.open(adapter));
    expect(second.scheduler.pending().map((job: Job) => job.data['name'])).toEqual(['one', 'two']);
    await second.scheduler.advance(2_000);
    expect(second.ran).toEqual(['one@1000', 'two@2000']);
    const again = second.scheduler.schedule('note', T0 + 5_000, { name: 'three' });
    expect(again.seq).toBeGreaterThan(2);
  });
});

describe('Scheduler cost', () => {
  it('an advance over many distinct due times never scans the stored jobs', async () => {
    const store = await Store.open(new MemoryAdapter());
    const clock = new Clock('manual', store, () => T0);
    const scheduler = new Scheduler(store, clock);
    let ran = 0;
    scheduler.handle('note', () => void ran++);
    await scheduler.start();
    for (let i = 1; i <= 1_000; i++) scheduler.schedule('note', T0 + i * 1_000);
    for (let i = 0; i < 10_000; i++) scheduler.schedule('note', T0 + 365 * 24 * 3_600_000 + i);
    const scans = vi.spyOn(store.jobs, 'values');
    const result = await scheduler.advance(1_000 * 1_000);
    expect(result.ran).toBe(1_000);
    expect(ran).toBe(1_000);
    expect(scans).not.toHaveBeenCalled();
    expect(store.jobs.size).toBe(10_000);
  });
});
