import type { Change } from './table.js';

/**
 * How a store persists. Two methods, like lowdb's adapters: `read` returns the last
 * persisted data (or null on first run); `write` resolves once the given changes are
 * durable. It receives both the changes and a way to build the whole snapshot, so an
 * adapter can rewrite a file or append a journal.
 */
export interface StoreAdapter {
  /** Where the data lives, for messages. */
  readonly location: string;
  read(): Promise<unknown>;
  write(changes: readonly Change[], snapshot: () => unknown): Promise<void>;
  close?(snapshot: () => unknown): Promise<void>;
}

export class MemoryAdapter implements StoreAdapter {
  readonly location = 'memory';
  async read(): Promise<unknown> {
    return null;
  }
  async write(): Promise<void> {}
}
