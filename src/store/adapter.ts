import type { Change } from './table.js';

/**
 * Receives persisted data piece by piece (see StoreAdapter.load), so a large store is
 * checked and indexed row by row and never sits in memory twice.
 */
export interface StoreSink {
  /** A whole snapshot document, of any shape (the store checks it). */
  document(value: unknown): void;
  /** A top-level member of the snapshot (`version`, a table given whole, ...). */
  member(name: string, value: unknown): void;
  /** One row of table `table` in the snapshot. */
  row(table: string, row: unknown): void;
  /** One change recorded after the snapshot, applied in order. */
  change(change: Change): void;
  /** Forget everything received so far (the adapter starts over another way). */
  reset(): void;
}

/**
 * How a store persists. Two methods, like lowdb's adapters: `read` returns the last
 * persisted data (or null on first run); `write` resolves once the given changes are
 * durable. It receives both the changes and a way to build the whole snapshot, so an
 * adapter can rewrite a file or append a journal. An adapter may also offer `load`,
 * which the store then uses instead of `read`.
 */
export interface StoreAdapter {
  /** Where the data lives, for messages. */
  readonly location: string;
  /** The folder holding the data, if any: named in storage errors. */
  readonly folder?: string;
  read(): Promise<unknown>;
  /** Streams the persisted data into `sink`; resolves false when there is none (first run). */
  load?(sink: StoreSink): Promise<boolean>;
  /**
   * Persists one group commit. `snapshot` gives the whole data of this moment (for adapters
   * that rewrite it); `liveRows` counts the rows the tables hold with these changes made.
   */
  write(changes: readonly Change[], snapshot: () => unknown, liveRows?: number): Promise<void>;
  close?(snapshot: () => unknown): Promise<void>;
  /**
   * Given once the store is loaded: the store's data when every change is written, or undefined
   * while some are not (Store.settledSnapshot), for an adapter that folds at a moment of its own.
   */
  attach?(settled: () => unknown): void;
}

export class MemoryAdapter implements StoreAdapter {
  readonly location = 'memory';
  async read(): Promise<unknown> {
    return null;
  }
  async write(): Promise<void> {}
}
