import { z } from 'zod';
import { describeIssues } from '../config/issues.js';
import type { StoreSink } from './adapter.js';
import { DataFolderRefusedError } from './data-folder-refused-error.js';
import { guardFor, type Guard } from './schema-guard.js';
import { snapshotSchema, snapshotShellSchema, tableSchemas, type TableName } from './snapshot.js';
import type { Change, Row, Table } from './table.js';

/** What loading needs of a table. */
export type LoadableTable = Pick<Table<Row>, 'load' | 'unload' | 'drop'>;

const MAX_ISSUES = 5;

/** Allocation-free checks of each table's rows; a row they do not pass goes through zod. */
const guards = Object.fromEntries(Object.entries(tableSchemas).map(([name, schema]) => [name, guardFor(schema)])) as Record<TableName, Guard>;

/**
 * Loads persisted data into a store's tables as an adapter streams it: every row is checked
 * against its table's schema (by an allocation-free guard derived from it, or by zod itself
 * when the guard is unsure) and indexed at once. Refuses (DataFolderRefusedError) data that is not a
 * deposit-sandbox store, naming the first problems.
 */
export class StoreLoader implements StoreSink {
  readonly #tables: Readonly<Record<TableName, LoadableTable>>;
  readonly #location: string;
  #issues: z.core.$ZodIssue[] = [];
  #rows = new Map<string, number>();
  /** Each table's last row loaded (see #share). */
  readonly #last = new Map<TableName, Record<string, unknown>>();
  #snapshot = false;
  #version = false;

  constructor(tables: Readonly<Record<TableName, LoadableTable>>, location: string) {
    this.#tables = tables;
    this.#location = location;
  }

  document(value: unknown): void {
    this.#snapshot = true;
    this.#version = true;
    const shell = snapshotShellSchema.safeParse(value);
    if (!shell.success) {
      this.#issues.push(...shell.error.issues);
      throw this.#refusal();
    }
    const source = value as Partial<Record<TableName, unknown[]>>;
    for (const name of Object.keys(tableSchemas) as TableName[]) {
      for (const row of source[name] ?? []) this.row(name, row);
    }
  }

  member(name: string, value: unknown): void {
    this.#snapshot = true;
    if (name === 'version') {
      this.#version = true;
      const version = snapshotSchema.shape.version.safeParse(value);
      if (!version.success) this.#fail(version.error.issues, ['version']);
      return;
    }
    if (!isTable(name)) return;
    if (!Array.isArray(value)) {
      this.#fail(z.array(z.unknown()).safeParse(value).error?.issues ?? [], [name]);
      return;
    }
    for (const row of value) this.row(name, row);
  }

  row(table: string, raw: unknown): void {
    if (!isTable(table)) return;
    const index = this.#rows.get(table) ?? 0;
    this.#rows.set(table, index + 1);
    this.#check(table, raw, [table, index]);
  }

  change(change: Change): void {
    if (change.op === 'clear') {
      for (const table of Object.values(this.#tables)) table.drop();
      return;
    }
    if (!isTable(change.table)) return;
    if (change.op === 'delete') {
      this.#tables[change.table].unload(change.id);
      return;
    }
    this.#check(change.table, change.record, ['journal', change.table, change.record.id]);
  }

  reset(): void {
    for (const table of Object.values(this.#tables)) table.drop();
    this.#issues = [];
    this.#rows.clear();
    this.#last.clear();
    this.#snapshot = false;
    this.#version = false;
  }

  /** Throws the refusal if anything was wrong. */
  finish(): void {
    if (this.#snapshot && !this.#version) this.#fail(snapshotSchema.shape.version.safeParse(undefined).error?.issues ?? [], ['version']);
    if (this.#issues.length > 0) throw this.#refusal();
  }

  /** Loads a row its table's schema accepts (the guard first, zod when in doubt); records why not otherwise. */
  #check(table: TableName, raw: unknown, at: PropertyKey[]): void {
    if (guards[table](raw)) {
      this.#share(table, raw as Record<string, unknown>);
      this.#tables[table].load(raw as Row);
      return;
    }
    const row = tableSchemas[table].safeParse(raw);
    if (row.success) this.#tables[table].load(row.data as Row);
    else this.#fail(row.error.issues, at);
  }

  /**
   * Consecutive rows often repeat a value (the merchant, the callback URL, the state, the
   * currency, a history entry's cause): JSON.parse makes a new string for each, and each would
   * live as long as its row. A string equal to the one at the same place in the table's previous
   * row is replaced by that row's string, so the copy dies young: less memory for a large store,
   * and less for the garbage collector to move while it loads. The row's values are unchanged.
   */
  #share(table: TableName, row: Record<string, unknown>): void {
    const last = this.#last.get(table);
    this.#last.set(table, row);
    if (last !== undefined) shareStrings(row, last, 2);
  }

  #fail(issues: readonly z.core.$ZodIssue[], at: PropertyKey[]): void {
    this.#issues.push(...issues.map((issue) => ({ ...issue, path: [...at, ...issue.path] })));
    if (this.#issues.length >= MAX_ISSUES) throw this.#refusal();
  }

  #refusal(): DataFolderRefusedError {
    const problems = describeIssues(new z.ZodError(this.#issues)).slice(0, MAX_ISSUES).join('; ');
    return new DataFolderRefusedError(`The store at ${this.#location} is not a deposit-sandbox store (${problems}). Move the file away to start empty; it is left untouched.`);
  }
}

/** Replaces each string of `value` equal to the one at the same place in `like` by that one, `depth` levels of objects and arrays down. */
function shareStrings(value: Record<string, unknown> | unknown[], like: Record<string, unknown> | unknown[], depth: number): void {
  const to = value as Record<string, unknown>;
  const from = like as Record<string, unknown>;
  for (const key in to) {
    const item = to[key];
    const other = from[key];
    if (typeof item === 'string') {
      if (item === other) to[key] = other;
    } else if (depth > 0 && typeof item === 'object' && item !== null && typeof other === 'object' && other !== null) {
      shareStrings(item as Record<string, unknown>, other as Record<string, unknown>, depth - 1);
    }
  }
}

function isTable(name: string): name is TableName {
  return Object.hasOwn(tableSchemas, name);
}
