/** A file a store keeps open between writes, and can close while nothing is being written to it. */
export interface IdleClosable {
  /** Closes the descriptor if no write or compaction is under way; false when busy (try another). */
  closeIdle(): boolean;
}

/**
 * Bounds the journal descriptors a process keeps open: every store with a journal of its own (a
 * sandbox's; the workspaces of a server share one, workspaces-journal.ts) keeps it open between
 * writes, and a process that opens many stores (`startSandbox()` many times, tools) would run past
 * a usual `ulimit -n 1024`. Here the least recently written
 * journals beyond `max` are closed (never one with a write under way) and reopened by their store
 * on its next write, which costs one open(2). The order is a Set's insertion order: a use moves
 * the store to the end.
 */
export class OpenJournals {
  readonly #open = new Set<IdleClosable>();
  #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  /** How many journals may stay open at once. */
  get max(): number {
    return this.#max;
  }

  set max(value: number) {
    this.#max = value;
    this.#trim();
  }

  /** How many journals are open now. */
  get size(): number {
    return this.#open.size;
  }

  /** `file` was just written (or opened): the most recently used; closes the least recently used beyond the bound. */
  used(file: IdleClosable): void {
    this.#open.delete(file);
    this.#open.add(file);
    if (this.#open.size > this.#max) this.#trim(file);
  }

  /** `file` closed its descriptor by itself. */
  closed(file: IdleClosable): void {
    this.#open.delete(file);
  }

  /** Closes the least recently used idle journals beyond the bound; never `keep`, which is about to be written. */
  #trim(keep?: IdleClosable): void {
    for (const file of this.#open) {
      if (this.#open.size <= this.#max) return;
      if (file !== keep && file.closeIdle()) this.#open.delete(file);
    }
  }
}

/**
 * The journals of this process. 128 leaves room for connections under the smallest limits in use
 * (`ulimit -n 256`), and is more than the busy workspaces of a test run (the benchmark writes 64
 * at once), so a busy journal is not closed and reopened on every write.
 */
export const openJournals = new OpenJournals(128);
