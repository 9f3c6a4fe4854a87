import type { StoreSink } from './adapter.js';
import type { Change } from './table.js';

/**
 * A StoreSink that rebuilds one plain snapshot document from what an adapter streams,
 * for `read()`: members as they came, rows keyed by `id`, changes applied in order.
 */
export class DocumentSink implements StoreSink {
  #document: Record<string, unknown> | undefined;
  #other: unknown;
  #whole = false;
  readonly #tables = new Map<string, Map<string, unknown>>();

  document(value: unknown): void {
    this.reset();
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const [name, member] of Object.entries(value)) this.member(name, member);
    } else {
      this.#whole = true;
      this.#other = value;
    }
  }

  member(name: string, value: unknown): void {
    this.#document ??= {};
    if (Array.isArray(value)) {
      this.#tables.set(name, new Map());
      for (const [index, row] of value.entries()) this.row(name, row, index);
    } else {
      this.#tables.delete(name);
      this.#document[name] = value;
    }
  }

  row(table: string, row: unknown, index = this.#table(table).size): void {
    // Rows without a string id stay in, under a key no id can have, for the store to refuse.
    const id = typeof row === 'object' && row !== null ? (row as Record<string, unknown>)['id'] : undefined;
    this.#table(table).set(typeof id === 'string' ? id : `\u0000${index}`, row);
  }

  change(change: Change): void {
    this.#document ??= { version: 1 };
    if (change.op === 'put') this.#table(change.table).set(change.record.id, change.record);
    else if (change.op === 'delete') this.#table(change.table).delete(change.id);
    else for (const rows of this.#tables.values()) rows.clear();
  }

  reset(): void {
    this.#document = undefined;
    this.#other = undefined;
    this.#whole = false;
    this.#tables.clear();
  }

  /** The document, or null when nothing was received. */
  result(): unknown {
    if (this.#whole) return this.#other;
    if (!this.#document) return null;
    const out: Record<string, unknown> = { ...this.#document };
    for (const [name, rows] of this.#tables) out[name] = [...rows.values()];
    return out;
  }

  #table(name: string): Map<string, unknown> {
    let rows = this.#tables.get(name);
    if (!rows) {
      rows = new Map();
      this.#tables.set(name, rows);
      this.#document ??= {};
    }
    return rows;
  }
}
