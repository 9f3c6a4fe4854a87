import type { CallbackEvent } from '../callbacks/records.js';
import type { Job } from '../clock/jobs.js';
import type { TradeRecord } from '../trades/trade.js';
import type { StoreAdapter } from './adapter.js';
import { SNAPSHOT_VERSION, type MetaRow, type Snapshot } from './snapshot.js';
import { StoreError, StoreLoader } from './store-loader.js';
import { Table, type Change, type Row } from './table.js';

export { metaRowSchema, SNAPSHOT_VERSION, snapshotSchema, type MetaRow, type Snapshot } from './snapshot.js';
export { StoreError } from './store-loader.js';

/** setImmediate as it was at start-up: a test's fake timers must not stall the store. */
const nextTurn: (callback: () => void) => unknown = setImmediate;

/** The key of a trade in `store.trades.findUnique`: its merchant (any case) and order. */
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
    this.trades = new Table<TradeRecord>('trades', record, (t) => [t.merchant.toLowerCase(), t.order]);
    this.jobs = new Table<Job>('jobs', record);
    this.callbacks = new Table<CallbackEvent>('callbacks', record);
    this.meta = new Table<MetaRow>('meta', record);
  }

  static async open(adapter: StoreAdapter): Promise<Store> {
    const store = new Store(adapter);
    const loader = new StoreLoader({ trades: store.trades, jobs: store.jobs, callbacks: store.callbacks, meta: store.meta }, adapter.location);
    try {
      if (adapter.load) {
        await adapter.load(loader);
      } else {
        const raw = await adapter.read();
        if (raw !== null && raw !== undefined) loader.document(raw);
      }
    } catch (error) {
      if (error instanceof StoreError) throw error;
      throw new StoreError(`The store at ${adapter.location} cannot be loaded: ${(error as Error).message}. Move the file away to start empty; it is left untouched.`);
    }
    loader.finish();
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

  /**
   * Resolves once every change made so far is durable. The write starts on the next turn of
   * the event loop (after every request that arrived with this one has made its changes),
   * or once the write in flight is done, so concurrent callers share one write.
   */
  commit(): Promise<void> {
    if (this.#queued) return this.#queued;
    if (this.#pending.length === 0) return this.#writing ?? Promise.resolve();
    const run = () => {
      this.#queued = undefined;
      return this.#flush();
    };
    const ready = this.#writing ?? new Promise<void>((resolve) => nextTurn(resolve));
    this.#queued = ready.then(run, run);
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
