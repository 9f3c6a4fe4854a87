export interface Row {
  id: string;
}

export type Change = { op: 'put'; table: string; record: Row } | { op: 'delete'; table: string; id: string } | { op: 'clear' };

/** Receives each change with the function that undoes it in memory (see Store). */
export type ChangeRecorder = (change: Change, undo: () => void) => void;

/**
 * A unique secondary key in two parts (e.g. merchant and order). Kept as a map of maps,
 * which indexes a large table faster than one map of joined strings, and is looked up by
 * its two parts, so a lookup builds no string.
 */
export type UniqueKey<T> = (row: T) => readonly [string, string];

/**
 * An in-memory table keyed by `id`, with an optional unique secondary key.
 * Every write is recorded as a Change for the store to persist.
 */
export class Table<T extends Row> {
  readonly name: string;
  readonly #rows = new Map<string, T>();
  readonly #unique = new Map<string, Map<string, string>>();
  readonly #uniqueKey: UniqueKey<T> | undefined;
  readonly #record: ChangeRecorder;

  constructor(name: string, record: ChangeRecorder, uniqueKey?: UniqueKey<T>) {
    this.name = name;
    this.#record = record;
    this.#uniqueKey = uniqueKey;
  }

  get size(): number {
    return this.#rows.size;
  }

  get(id: string): T | undefined {
    return this.#rows.get(id);
  }

  has(id: string): boolean {
    return this.#rows.has(id);
  }

  /** The row whose unique key is [first, second]. */
  findUnique(first: string, second: string): T | undefined {
    const id = this.#unique.get(first)?.get(second);
    return id === undefined ? undefined : this.#rows.get(id);
  }

  values(): IterableIterator<T> {
    return this.#rows.values();
  }

  /** Inserts or replaces a row (the caller passes a fresh object; rows are not mutated in place). */
  put(row: T): T {
    this.#put(row, this.#rows.get(row.id));
    return row;
  }

  /**
   * Adds a row under an id not stored yet and returns true; returns false, changing nothing,
   * when the id is taken. One lookup of the id where `has` and then `put` cost two.
   */
  insert(row: T): boolean {
    if (this.#rows.has(row.id)) return false;
    this.#put(row, undefined);
    return true;
  }

  /** Stores `row` in place of `previous` and records the change, with the undo that puts `previous` back. */
  #put(row: T, previous: T | undefined): void {
    this.#index(row, previous);
    this.#record({ op: 'put', table: this.name, record: row }, () => this.restore(row.id, previous));
  }

  delete(id: string): void {
    const previous = this.#rows.get(id);
    if (!previous) return;
    this.unload(id);
    this.#record({ op: 'delete', table: this.name, id }, () => this.restore(id, previous));
  }

  /** Puts back the row `id` had before a change (none: removes it), without recording a change. */
  restore(id: string, previous: T | undefined): void {
    if (previous) this.#index(previous, this.#rows.get(id));
    else this.unload(id);
  }

  /** Empties the table like `drop` and returns the function that puts every row back. */
  dropSaving(): () => void {
    const rows = [...this.#rows.values()];
    this.drop();
    return () => {
      this.drop();
      for (const row of rows) this.#index(row, undefined);
    };
  }

  /** Loads a row from persisted data without recording a change. */
  load(row: T): void {
    this.#index(row, this.#rows.get(row.id));
  }

  /** Removes a row while loading persisted data, without recording a change. */
  unload(id: string): void {
    const row = this.#rows.get(id);
    if (!row) return;
    this.#rows.delete(id);
    this.#unindex(row);
  }

  /** Empties the table without recording a change (the store records one `clear`). */
  drop(): void {
    this.#rows.clear();
    this.#unique.clear();
  }

  /** Stores `row` in place of `previous` (the row stored under its id now, if any). */
  #index(row: T, previous: T | undefined): void {
    if (previous) this.#unindex(previous);
    this.#rows.set(row.id, row);
    if (!this.#uniqueKey) return;
    const [first, second] = this.#uniqueKey(row);
    let inner = this.#unique.get(first);
    if (!inner) {
      inner = new Map();
      this.#unique.set(first, inner);
    }
    inner.set(second, row.id);
  }

  #unindex(row: T): void {
    if (!this.#uniqueKey) return;
    const [first, second] = this.#uniqueKey(row);
    const inner = this.#unique.get(first);
    if (inner?.get(second) === row.id) inner.delete(second);
  }
}
