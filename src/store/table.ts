export interface Row {
  id: string;
}

export type Change =
  | { op: 'put'; table: string; record: Row }
  | { op: 'delete'; table: string; id: string }
  | { op: 'clear' };

/**
 * An in-memory table keyed by `id`, with optional unique secondary keys.
 * Every write is recorded as a Change for the store to persist.
 */
export class Table<T extends Row> {
  readonly name: string;
  readonly #rows = new Map<string, T>();
  readonly #unique = new Map<string, string>();
  readonly #uniqueKey: ((row: T) => string) | undefined;
  readonly #record: (change: Change) => void;

  constructor(name: string, record: (change: Change) => void, uniqueKey?: (row: T) => string) {
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

  /** The row whose unique key is `key`. */
  findUnique(key: string): T | undefined {
    const id = this.#unique.get(key);
    return id === undefined ? undefined : this.#rows.get(id);
  }

  values(): IterableIterator<T> {
    return this.#rows.values();
  }

  /** Inserts or replaces a row (the caller passes a fresh object; rows are not mutated in place). */
  put(row: T): T {
    this.#index(row);
    this.#record({ op: 'put', table: this.name, record: row });
    return row;
  }

  delete(id: string): void {
    const row = this.#rows.get(id);
    if (!row) return;
    this.#rows.delete(id);
    if (this.#uniqueKey) this.#unique.delete(this.#uniqueKey(row));
    this.#record({ op: 'delete', table: this.name, id });
  }

  /** Loads a row from persisted data without recording a change. */
  load(row: T): void {
    this.#index(row);
  }

  /** Empties the table without recording a change (the store records one `clear`). */
  drop(): void {
    this.#rows.clear();
    this.#unique.clear();
  }

  #index(row: T): void {
    const previous = this.#rows.get(row.id);
    if (previous && this.#uniqueKey) this.#unique.delete(this.#uniqueKey(previous));
    this.#rows.set(row.id, row);
    if (this.#uniqueKey) this.#unique.set(this.#uniqueKey(row), row.id);
  }
}
