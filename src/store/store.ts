import { z } from 'zod';
import { describeIssues } from '../config/issues.js';
import { callbackEventSchema, type CallbackEvent } from '../callbacks/records.js';
import { jobSchema, type Job } from '../clock/jobs.js';
import { tradeRecordSchema, type TradeRecord } from '../trades/trade.js';
import type { StoreAdapter } from './adapter.js';
import { Table, type Change, type Row } from './table.js';

export const metaRowSchema = z.looseObject({ id: z.string() });
export type MetaRow = z.infer<typeof metaRowSchema>;

export const SNAPSHOT_VERSION = 1;

export const snapshotSchema = z.object({
  version: z.literal(SNAPSHOT_VERSION),
  trades: z.array(tradeRecordSchema).default([]),
  jobs: z.array(jobSchema).default([]),
  callbacks: z.array(callbackEventSchema).default([]),
  meta: z.array(metaRowSchema).default([]),
});
export type Snapshot = z.infer<typeof snapshotSchema>;

export class StoreError extends Error {
  override name = 'StoreError';
}

export const orderKey = (merchant: string, order: string): string => `${merchant.toLowerCase()}\u0000${order}`;

/**
 * All sandbox state, in memory, with indexes; persisted through an adapter.
 * Writes are synchronous on the tables (so checks and inserts cannot interleave) and
 * made durable by `commit()`, which batches every change made since the last write
 * into one adapter call (group commit).
 */
export class Store {
  readonly trades: Table<TradeRecord>;
  readonly jobs: Table<Job>;
  readonly callbacks: Table<CallbackEvent>;
  readonly meta: Table<MetaRow>;
  readonly adapter: StoreAdapter;
  #pending: Change[] = [];
  #writing: Promise<void> | undefined;
  #queued: Promise<void> | undefined;

  private constructor(adapter: StoreAdapter) {
    this.adapter = adapter;
    const record = (change: Change) => this.#pending.push(change);
    this.trades = new Table<TradeRecord>('trades', record, (t) => orderKey(t.merchant, t.order));
    this.jobs = new Table<Job>('jobs', record);
    this.callbacks = new Table<CallbackEvent>('callbacks', record);
    this.meta = new Table<MetaRow>('meta', record);
  }

  static async open(adapter: StoreAdapter): Promise<Store> {
    const store = new Store(adapter);
    let raw: unknown;
    try {
      raw = await adapter.read();
    } catch (error) {
      throw new StoreError(`The store at ${adapter.location} cannot be loaded: ${(error as Error).message}. Move the file away to start empty; it is left untouched.`);
    }
    if (raw !== null && raw !== undefined) {
      const parsed = snapshotSchema.safeParse(raw);
      if (!parsed.success) {
        const problems = describeIssues(parsed.error).slice(0, 5).join('; ');
        throw new StoreError(`The store at ${adapter.location} is not a deposit-sandbox store (${problems}). Move the file away to start empty; it is left untouched.`);
      }
      for (const trade of parsed.data.trades) store.trades.load(trade);
      for (const job of parsed.data.jobs) store.jobs.load(job);
      for (const event of parsed.data.callbacks) store.callbacks.load(event);
      for (const row of parsed.data.meta) store.meta.load(row);
    }
    return store;
  }

  snapshot(): Snapshot {
    return {
      version: SNAPSHOT_VERSION,
      trades: [...this.trades.values()],
      jobs: [...this.jobs.values()],
      callbacks: [...this.callbacks.values()],
      meta: [...this.meta.values()],
    };
  }

  /** Empties every table (admin reset). */
  clear(): void {
    for (const table of this.#tables()) table.drop();
    this.#pending.push({ op: 'clear' });
  }

  /** Resolves once every change made so far is durable. Concurrent callers share one write. */
  commit(): Promise<void> {
    if (this.#queued) return this.#queued;
    if (this.#pending.length === 0) return this.#writing ?? Promise.resolve();
    if (!this.#writing) return this.#flush();
    const run = () => {
      this.#queued = undefined;
      return this.#flush();
    };
    this.#queued = this.#writing.then(run, run);
    return this.#queued;
  }

  async close(): Promise<void> {
    await this.commit();
    await this.adapter.close?.(() => this.snapshot());
  }

  #tables(): Array<Pick<Table<Row>, 'drop'>> {
    return [this.trades, this.jobs, this.callbacks, this.meta];
  }

  #flush(): Promise<void> {
    const changes = this.#pending;
    this.#pending = [];
    const writing = this.adapter.write(changes, () => this.snapshot()).finally(() => {
      if (this.#writing === writing) this.#writing = undefined;
    });
    this.#writing = writing;
    return writing;
  }
}
