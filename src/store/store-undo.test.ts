import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TradeRecord } from '../trades/trade.js';
import type { StoreAdapter } from './adapter.js';
import { WriteFailedError } from './write-failed-error.js';
import { Store } from './store.js';
import type { Change, Row } from './table.js';

/** An adapter whose writes wait until the test settles them, one by one. */
class HeldAdapter implements StoreAdapter {
  readonly location = '/data/db.json';
  readonly folder = '/data';
  readonly writes: Array<{ changes: readonly Change[]; settle: (error?: Error) => void }> = [];
  async read(): Promise<unknown> {
    return null;
  }
  write(changes: readonly Change[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.writes.push({ changes, settle: (error) => (error ? reject(error) : resolve()) });
    });
  }
}

const full = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

function trade(n: number, state: TradeRecord['state'] = 'created'): TradeRecord {
  const at = '2026-01-01T00:00:00.000Z';
  return {
    id: `t${n}`,
    order: `order-${n}`,
    merchant: 'm',
    state,
    amount_cents: 100,
    amount_currency: 'RUB',
    rate: 1,
    type: 'any_bank',
    requisites: { name: 'Ivan Petrov', number: '2202201234567890', bank_name: 'Sberbank' },
    created_at: at,
    updated_at: at,
    history: [{ from: null, to: state, at, cause: 'create' }],
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('Store: a failed write undoes its changes', () => {
  it('undoes the failed batch and every later one, newest first, and rejects every caller', async () => {
    const warnings: string[] = [];
    const adapter = new HeldAdapter();
    const store = await Store.open(adapter, { warn: (message) => warnings.push(message) });
    store.trades.put(trade(1));
    const first = store.commit();
    await turn();
    expect(adapter.writes).toHaveLength(1);
    adapter.writes[0]?.settle();
    await first;

    let reverts = 0;
    store.onRevert(() => reverts++);
    // Batch A: an update and a new trade; batch B (made while A is written): builds on A.
    store.trades.put(trade(1, 'confirmed'));
    store.trades.put(trade(2));
    const a = store.commit();
    await turn();
    store.trades.put(trade(2, 'canceled'));
    store.trades.delete('t1');
    store.meta.put({ id: 'clock', offset: 5 });
    const b = store.commit();
    adapter.writes[1]?.settle(full());
    // A's write failed with B waiting: both are tried once more, in one write; that fails too.
    await turn();
    expect(adapter.writes[2]?.changes).toHaveLength(5);
    adapter.writes[2]?.settle(full());

    await expect(a).rejects.toBeInstanceOf(WriteFailedError);
    await expect(b).rejects.toMatchObject({ kind: 'full', folder: '/data' });
    expect([...store.trades.values()]).toEqual([trade(1)]);
    expect(store.trades.findUnique('m', 'order-2')).toBeUndefined();
    expect(store.trades.findUnique('m', 'order-1')).toEqual(trade(1));
    expect(store.meta.size).toBe(0);
    expect(store.failing?.kind).toBe('full');
    expect(warnings).toHaveLength(1);
    expect(reverts).toBe(1); // both batches were undone, and the listeners told once

    // Nothing of the undone batches is written later; the next change is written alone.
    store.trades.put(trade(3));
    const c = store.commit();
    await turn();
    expect(adapter.writes[3]?.changes).toEqual([{ op: 'put', table: 'trades', record: trade(3) }]);
    adapter.writes[3]?.settle();
    await c;
    expect(store.failing).toBeUndefined();
    expect(warnings).toHaveLength(2);
  });

  it('a failed write with changes waiting behind it is tried once more with them: saved when space came back meanwhile', async () => {
    const warnings: string[] = [];
    const adapter = new HeldAdapter();
    const store = await Store.open(adapter, { warn: (message) => warnings.push(message) });
    // A background write (a timeline step, the report's counts) starts while the disk is full...
    store.meta.put({ id: 'report', counts: 1 });
    const background = store.commit();
    await turn();
    // ...space is freed, and a merchant's create waits behind it.
    store.trades.put(trade(1));
    const create = store.commit();
    adapter.writes[0]?.settle(full());
    await turn();
    expect(adapter.writes).toHaveLength(2);
    expect(adapter.writes[1]?.changes).toEqual([
      { op: 'put', table: 'meta', record: { id: 'report', counts: 1 } },
      { op: 'put', table: 'trades', record: trade(1) },
    ]);
    adapter.writes[1]?.settle();
    await expect(background).resolves.toBeUndefined();
    await expect(create).resolves.toBeUndefined();
    expect(store.trades.findUnique('m', 'order-1')).toEqual(trade(1));
    expect(store.failing).toBeUndefined();
    expect(warnings).toEqual([]);

    // With nothing waiting, a failed write is not tried again: its callers are refused at once.
    store.trades.put(trade(3));
    const alone = store.commit();
    await turn();
    adapter.writes[2]?.settle(full());
    await expect(alone).rejects.toBeInstanceOf(WriteFailedError);
    await turn();
    expect(adapter.writes).toHaveLength(3);
    expect(store.trades.has('t3')).toBe(false);
  });

  it('undoes a reset (clear) whose write failed', async () => {
    const adapter = new HeldAdapter();
    const store = await Store.open(adapter, { warn: () => undefined });
    store.trades.put(trade(1));
    store.jobs.put({ id: 'j1', due: 1, seq: 1, kind: 'transition', data: {} });
    const saved = store.commit();
    await turn();
    adapter.writes[0]?.settle();
    await saved;

    store.clear();
    store.meta.put({ id: 'clock', offset: 1 });
    const reset = store.commit();
    await turn();
    adapter.writes[1]?.settle(full());
    await expect(reset).rejects.toBeInstanceOf(WriteFailedError);
    expect([...store.trades.values()]).toEqual([trade(1)]);
    expect(store.jobs.has('j1')).toBe(true);
    expect(store.meta.size).toBe(0);
  });
});

/** An adapter that keeps what it was given, as the disk would, once the test lets a write succeed. */
class DiskAdapter extends HeldAdapter {
  readonly disk = new Map<string, Row>();
  /** The `v` of every row of a write that succeeded. */
  readonly durable = new Set<number>();
  override write(changes: readonly Change[]): Promise<void> {
    return super.write(changes).then(() => {
      for (const change of changes) {
        if (change.op === 'clear') this.disk.clear();
        else if (change.op === 'delete') this.disk.delete(change.id);
        else {
          this.disk.set(change.record.id, change.record);
          this.durable.add((change.record as Row & { v: number }).v);
        }
      }
    });
  }
}

type Step = { op: 'put' | 'delete'; row: number } | { op: 'clear' } | { op: 'settle'; ok: boolean } | { op: 'turn' };

const steps = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: fc.record({ op: fc.constant('put' as const), row: fc.integer({ min: 0, max: 2 }) }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), row: fc.integer({ min: 0, max: 2 }) }) },
    { weight: 1, arbitrary: fc.constant({ op: 'clear' as const }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('settle' as const), ok: fc.boolean() }) },
    { weight: 3, arbitrary: fc.constant({ op: 'turn' as const }) },
  ),
  // Up to 40 steps (fast-check's default size would stop at 10).
  { maxLength: 40, size: 'max' },
);

/** A request saved by a second try, then one made during that try, whose own write fails. */
const SECOND_TRY_THEN_FAILURE: Step[] = [
  { op: 'put', row: 0 },
  { op: 'turn' },
  { op: 'put', row: 1 },
  { op: 'settle', ok: false },
  { op: 'put', row: 2 },
  { op: 'settle', ok: true },
  { op: 'turn' },
  { op: 'settle', ok: false },
];

describe('Store: any order of changes and failing writes', () => {
  it('a change is acknowledged exactly when a write holding it succeeded (and only once it did), and once all is settled memory is what is on disk', async () => {
    await fc.assert(
      fc.asyncProperty(steps, async (script: Step[]) => {
        const adapter = new DiskAdapter();
        const store = await Store.open(adapter, { warn: () => undefined });
        // Per request: whether it was acknowledged, and whether its row was on disk when it was answered.
        const outcomes: Array<{ v: number; answer: Promise<{ saved: boolean; onDisk: boolean }> }> = [];
        let answered = 0;
        let settled = 0;
        const settle = (ok: boolean) => {
          const write = adapter.writes[settled];
          if (write === undefined) return;
          settled++;
          write.settle(ok ? undefined : full());
        };
        // Each change is a request: its changes, then commit(), as a route does. Every request ends
        // with a row of its own (`v` = its number), so the disk shows whether it was saved.
        for (const step of script) {
          if (step.op === 'settle') {
            // A write's outcome is a task of its own: what it sets off runs before the next request.
            settle(step.ok);
            await turn();
          } else if (step.op === 'turn') await turn();
          else {
            const v = outcomes.length;
            if (step.op === 'clear') store.clear();
            if (step.op === 'delete') store.meta.delete(`row-${step.row}`);
            if (step.op === 'put') store.meta.put({ id: `row-${step.row}`, v });
            else store.meta.put({ id: `request-${v}`, v });
            const answer = store.commit().then(
              () => ({ saved: true, onDisk: adapter.durable.has(v) }),
              () => ({ saved: false, onDisk: adapter.durable.has(v) }),
            );
            outcomes.push({ v, answer: answer.finally(() => answered++) });
          }
        }
        // Then every write succeeds until every request is answered.
        for (let round = 0; answered < outcomes.length; round++) {
          expect(round, 'rounds of writes before every request is answered').toBeLessThan(100);
          await turn();
          settle(true);
        }
        for (const { v, answer } of outcomes) {
          const { saved, onDisk } = await answer;
          expect({ saved, onDisk, inTheEnd: adapter.durable.has(v) }, `request ${v}`).toEqual(saved ? { saved, onDisk: true, inTheEnd: true } : { saved, onDisk: false, inTheEnd: false });
        }
        expect(new Map([...store.meta.values()].map((row) => [row.id, row]))).toEqual(adapter.disk);
      }),
      { numRuns: 300, examples: [[SECOND_TRY_THEN_FAILURE]] },
    );
  });
});
