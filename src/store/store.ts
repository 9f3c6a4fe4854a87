import type { CallbackEvent } from './callback-records.js';
import type { Job } from './jobs.js';
import { quietLogger } from '../log/logger.js';
import type { TradeRecord } from '../trades/trade.js';
import type { StoreAdapter } from './adapter.js';
import { SNAPSHOT_VERSION, type MetaRow, type Snapshot } from './snapshot.js';
import { DataFolderRefusedError } from './data-folder-refused-error.js';
import { StoreLoader } from './store-loader.js';
import { WriteFailedError } from './write-failed-error.js';
import { Table, type Change, type Row } from './table.js';

export { metaRowSchema, SNAPSHOT_VERSION, snapshotSchema, type MetaRow, type Snapshot } from './snapshot.js';
export { DataFolderRefusedError } from './data-folder-refused-error.js';
export { WriteFailedError } from './write-failed-error.js';

/** setImmediate as it was at start-up: a test's fake timers must not stall the store. */
const nextTurn: (callback: () => void) => unknown = setImmediate;
let turn: Promise<void> | undefined;
/**
 * Resolves on the next turn of the event loop. Every store that asks during one turn gets the
 * same promise (one setImmediate), so 64 busy workspaces cost one wake-up per turn, not 64.
 */
const afterTurn = (): Promise<void> =>
  (turn ??= new Promise<void>((resolve) =>
    nextTurn(() => {
      turn = undefined;
      resolve();
    }),
  ));

/**
 * All sandbox state, in memory, with indexes; persisted through an adapter.
 * Writes are synchronous on the tables (so checks and inserts cannot interleave) and
 * made durable by `commit()`, which batches every change made since the last write
 * into one adapter call (group commit).
 */
export interface StoreOptions {
  /**
   * Where the store reports that writes fail, and that they work again: the sandbox's logger
   * (src/log/logger.ts), given at creation. Default: nowhere (a store given no logger says nothing).
   */
  warn?: (message: string) => void;
}

/**
 * All sandbox state, in memory, with indexes; persisted through an adapter.
 * Writes are synchronous on the tables (so checks and inserts cannot interleave) and
 * made durable by `commit()`, which batches every change made since the last write
 * into one adapter call (group commit).
 *
 * Save before acknowledge: a caller answers (or queues anything) only once `commit()`
 * resolved. Every change keeps its undo; when a write fails, the store undoes the changes
 * of that batch and of every later one not yet written, newest first, so memory is exactly
 * what is on disk, and `commit()` rejects with a WriteFailedError for every caller concerned.
 * A failed write with changes waiting behind it is first tried once more, together with them:
 * a change made just as space came back is saved rather than refused with a write that started
 * before.
 */
export class Store {
  readonly trades: Table<TradeRecord>;
  readonly jobs: Table<Job>;
  readonly callbacks: Table<CallbackEvent>;
  readonly meta: Table<MetaRow>;
  readonly adapter: StoreAdapter;
  #pending: Change[] = [];
  #undo: Array<() => void> = [];
  #writing: Promise<void> | undefined;
  #queued: Promise<void> | undefined;
  readonly #warn: (message: string) => void;
  readonly #reverted: Array<() => void> = [];
  /** The failure of the current episode of failing writes (logged once), if writes fail. */
  #failure: WriteFailedError | undefined;

  private constructor(adapter: StoreAdapter, options: StoreOptions) {
    this.adapter = adapter;
    this.#warn = options.warn ?? quietLogger.warn;
    const record = (change: Change, undo: () => void) => {
      this.#pending.push(change);
      this.#undo.push(undo);
    };
    this.trades = new Table<TradeRecord>('trades', record, (t) => [t.merchant.toLowerCase(), t.order]);
    this.jobs = new Table<Job>('jobs', record);
    this.callbacks = new Table<CallbackEvent>('callbacks', record);
    this.meta = new Table<MetaRow>('meta', record);
  }

  static async open(adapter: StoreAdapter, options: StoreOptions = {}): Promise<Store> {
    const store = new Store(adapter, options);
    const loader = new StoreLoader({ trades: store.trades, jobs: store.jobs, callbacks: store.callbacks, meta: store.meta }, adapter.location);
    try {
      if (adapter.load) {
        await adapter.load(loader);
      } else {
        const raw = await adapter.read();
        if (raw !== null && raw !== undefined) loader.document(raw);
      }
    } catch (error) {
      if (error instanceof DataFolderRefusedError) throw error;
      throw new DataFolderRefusedError(`The store at ${adapter.location} cannot be loaded: ${(error as Error).message}. Move the file away to start empty; it is left untouched.`);
    }
    loader.finish();
    adapter.attach?.(() => store.settledSnapshot());
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

  /**
   * The whole data when every change made so far is written (none waiting, none being written),
   * so it is exactly what is on disk; undefined otherwise.
   */
  settledSnapshot(): Snapshot | undefined {
    return this.#pending.length === 0 && this.#writing === undefined && this.#queued === undefined ? this.snapshot() : undefined;
  }

  /** Whether writes are failing right now (the last write failed and none succeeded since). */
  get failing(): WriteFailedError | undefined {
    return this.#failure;
  }

  /** Called after a failed write put memory back, so indexes kept outside the tables can rebuild. */
  onRevert(listener: () => void): void {
    this.#reverted.push(listener);
  }

  /** Empties every table (admin reset). */
  clear(): void {
    const restore = this.#tables().map((table) => table.dropSaving());
    this.#pending.push({ op: 'clear' });
    this.#undo.push(() => {
      for (const put of restore) put();
    });
  }

  /**
   * Resolves once every change made so far is durable; rejects with a WriteFailedError when
   * the write failed (those changes are undone). The write starts on the next turn of the
   * event loop (after every request that arrived with this one has made its changes), or
   * on the turn after the write in flight is done, so concurrent callers share one write.
   */
  commit(): Promise<void> {
    if (this.#queued) return this.#queued;
    if (this.#pending.length === 0) return this.#writing ?? Promise.resolve();
    // Behind a write in flight, wait one more turn once it is done: its callers answer first,
    // and the requests that arrive meanwhile join this write (fewer, larger writes).
    const ahead = this.#writing ? this.#writing.then(afterTurn) : afterTurn();
    // A queue the write ahead took into its second try (#write) is no longer the current one: its
    // changes were in that write, so it settles with it, and what came since is another queue's.
    const queued: Promise<void> = ahead.then(
      () => {
        if (this.#queued !== queued) return;
        this.#queued = undefined;
        return this.#flush();
      },
      (error: unknown) => {
        // The write ahead failed and undid everything pending then; undo what came since.
        if (this.#queued === queued) {
          this.#queued = undefined;
          this.#revertPending();
        }
        throw error;
      },
    );
    this.#queued = queued;
    return queued;
  }

  #tables(): Array<Pick<Table<Row>, 'dropSaving'>> {
    return [this.trades, this.jobs, this.callbacks, this.meta];
  }

  async close(): Promise<void> {
    await this.commit();
    await this.adapter.close?.(() => this.snapshot());
  }

  #flush(): Promise<void> {
    const { changes, undo } = this.#takePending();
    if (changes.length === 0) return Promise.resolve();
    const writing: Promise<void> = this.#write(changes, undo, true, () => {
      if (this.#writing === writing) this.#writing = undefined;
    });
    this.#writing = writing;
    return writing;
  }

  /**
   * Hands `changes` to the adapter; each outcome ends with `done` (in the handlers: one promise
   * fewer per write than a finally). When the write fails and changes wait behind it (`again`),
   * they join the batch and the whole is written once more; when it fails for good, it and every
   * change since are undone and the failure is thrown.
   */
  #write(changes: readonly Change[], undo: Array<() => void>, again: boolean, done: () => void): Promise<void> {
    return this.adapter
      .write(changes, () => this.snapshot(), this.trades.size + this.jobs.size + this.callbacks.size + this.meta.size)
      .then(
        () => {
          this.#succeeded();
          done();
        },
        (error: unknown) => {
          if (again && this.#pending.length > 0) {
            // The waiting changes' callers settle with this second try; a change made during it queues anew.
            this.#queued = undefined;
            const waiting = this.#takePending();
            return this.#write([...changes, ...waiting.changes], [...undo, ...waiting.undo], false, done);
          }
          const failure = WriteFailedError.from(error, this.adapter.folder ?? this.adapter.location, this.adapter.location);
          // The changes made since (newest), then this batch's: memory is what is on disk again.
          this.#rollBack(this.#takePending().undo, undo);
          this.#failed(failure);
          done();
          throw failure;
        },
      );
  }

  /** Undoes every change not yet handed to the adapter, newest first. */
  #revertPending(): void {
    this.#rollBack(this.#takePending().undo);
  }

  /** The changes not yet handed to the adapter, with their undos; they are no longer pending. */
  #takePending(): { changes: Change[]; undo: Array<() => void> } {
    const taken = { changes: this.#pending, undo: this.#undo };
    this.#pending = [];
    this.#undo = [];
    return taken;
  }

  /** Runs each list of undos newest first, in the order given, then tells the listeners once. */
  #rollBack(...lists: Array<Array<() => void>>): void {
    let undone = 0;
    for (const list of lists) {
      for (let i = list.length - 1; i >= 0; i--) list[i]?.();
      undone += list.length;
    }
    if (undone > 0) for (const listener of this.#reverted) listener();
  }

  #failed(failure: WriteFailedError): void {
    if (this.#failure?.kind === failure.kind) return;
    this.#failure = failure;
    this.#warn(`${failure.message} Every change is refused until a write succeeds; this is logged once.`);
  }

  #succeeded(): void {
    if (!this.#failure) return;
    this.#failure = undefined;
    this.#warn(`writes to ${this.adapter.folder ?? this.adapter.location} work again; changes are saved as before.`);
  }
}
