import { closeSync, constants, ftruncate, mkdirSync, openSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { StoreAdapter, StoreSink } from './adapter.js';
import { DocumentSink } from './document-sink.js';
import { openJournalForWrites, replayJournals } from './journal-replay.js';
import { loadSnapshotFile, syncFolderSync, writeSnapshotFile } from './snapshot-file.js';
import { WriteFailedError } from './write-failed-error.js';
import { shouldCompact } from './compaction-policy.js';
import { journalName, listGenerations, matchJournals } from './journal-generations.js';
import { assertWritable, DataFolderRefusedError, notWritable } from './data-folder-refused-error.js';
import type { Change } from './table.js';
import { type JournalWriter, journalWriter } from './journal-writer.js';
import { DataFolderLock } from './data-folder-lock.js';
import { type IdleClosable, openJournals } from './open-journals.js';
import { quietLogger } from '../log/logger.js';
import type { JournalPosition, JournalSeat, WorkspacesJournal } from './workspaces-journal.js';

export interface JournalAdapterOptions {
  /** fdatasync the journal after every group commit (survives a power cut; slower). Default false. */
  fsync?: boolean;
  /**
   * The compaction threshold (compaction-policy.ts): compact once this many bytes of what start-up
   * reads are superseded (and at least as much as is live). Default 64 MiB.
   */
  compactBytes?: number;
  /** Where recovery notes go (a dropped torn record, damaged records): the sandbox's logger's warn. Default: nowhere. */
  warn?: (message: string) => void;
  /** What appends the records (journal-writer.ts). Default: the one writer of this process. */
  writer?: JournalWriter;
  /**
   * A workspace's store: its changes go to the workspaces' journal of its data folder
   * (workspaces-journal.ts) under `name`, not to a journal of its own; its snapshot says up to
   * where it holds them. Journals of its own (left by an earlier version) are still read, and
   * folded in at its first compaction.
   */
  workspace?: { journal: WorkspacesJournal; name: string };
}

/** The member of a workspace's db.json that says up to where it holds its entries of the workspaces' journal. */
const FOLDED_MEMBER = 'workspaces_journal';

const RETRY_MS = 30_000;

export { journalName } from './journal-generations.js';

/**
 * The file store: a snapshot (`db.json`) plus an append-only journal of changes
 * (`journal.<generation>.ndjson`).
 *
 * - write: the changes of one group commit become one framed line appended to the journal;
 *   it resolves once the OS has the bytes (they survive the process being killed).
 * - read: the snapshot, then every journal of its generation and later, in order; a record
 *   cut short at the end is dropped, a damaged one in the middle skipped.
 * - compaction (once enough of the data is superseded, see compaction-policy.ts; after a
 *   reset; on close): new changes switch to the
 *   next journal generation, the snapshot of that moment is written atomically (temp file,
 *   fsync, rename) with the new generation, and only then are older journals removed. A
 *   crash at any point leaves files that load to the same data.
 * Nothing is modified before the first write, so a store that is refused is left untouched.
 */
export class JournalAdapter implements StoreAdapter, IdleClosable {
  /** The snapshot file, `<dir>/db.json`. */
  readonly location: string;
  readonly dir: string;
  /** The data folder (same as dir). */
  get folder(): string {
    return this.dir;
  }
  readonly #fsync: boolean;
  /** Whether every group commit is fdatasynced (the workspaces of a server store as its default sandbox does). */
  get fsync(): boolean {
    return this.#fsync;
  }
  readonly #writer: JournalWriter;
  readonly #compactBytes: number;
  /** The compaction threshold (JournalAdapterOptions.compactBytes); the workspaces' journal starts a new generation at it. */
  get compactBytes(): number {
    return this.#compactBytes;
  }
  readonly #warn: (message: string) => void;
  /** Generation of the journal new changes are appended to. */
  #generation = 0;
  /** Journal generations present on disk. */
  #journals = new Set<number>();
  /** Journals with damaged records: kept aside (renamed), not removed, when compacted away. */
  #damaged = new Set<number>();
  /** Files to remove before the first write (journals older than the snapshot, a temp file). */
  #obsolete: string[] = [];
  #fd: number | undefined;
  /** Whether the active journal was opened once (after that, a closed #fd was closed while idle: reopen it as it is). */
  #opened = false;
  /** Writes under way (their descriptor must stay open). */
  #busy = 0;
  /** Valid bytes of the active journal; the next record goes here. */
  #size = 0;
  /** Bytes on disk of the active journal when it was read (more than #size after a torn write). */
  #fileBytes = 0;
  #snapshotBytes = 0;
  /** Rows in the snapshot plus changes in the journals: what start-up would load and replay. */
  #entries = 0;
  /** Whether the journals hold changes the snapshot does not. */
  #dirty = false;
  #compacting: Promise<void> | undefined;
  /** Set when close() begins: no compaction starts in the background from then on (close folds last). */
  #closing = false;
  #retryAfter = 0;
  /** The lock this process holds on the folder (or on the data folder whose workspace this is), if any. */
  readonly #lock: DataFolderLock | undefined;
  /** A workspace's: the workspaces' journal its changes go to (see JournalAdapterOptions.workspace). */
  readonly #shared: { journal: WorkspacesJournal; name: string } | undefined;
  /** The end of its newest entry in the workspaces' journal (what a snapshot of this moment holds up to). */
  #lastEnd: JournalPosition | undefined;
  /** The workspaces' journal asked it to fold its entries in: the next compaction (or write) does. */
  #mustFold = false;
  /** The store's data when every change is written, or undefined (Store.settledSnapshot). */
  #settled: (() => unknown) | undefined;
  readonly #seat: JournalSeat = { fold: () => this.#fold() };

  constructor(dir: string, options: JournalAdapterOptions = {}) {
    try {
      mkdirSync(dir, { recursive: true });
    } catch (error) {
      throw new DataFolderRefusedError(notWritable(dir, 'the data folder', error));
    }
    this.dir = dir;
    this.location = join(dir, 'db.json');
    this.#fsync = options.fsync ?? false;
    this.#writer = options.writer ?? journalWriter;
    this.#compactBytes = options.compactBytes ?? 64 * 1024 * 1024;
    this.#lock = DataFolderLock.covering(dir)?.lock;
    this.#shared = options.workspace;
    // A workspace's notes (a damaged journal, a failed compaction) name the workspace: the registry
    // gives a workspace's journal the workspace's logger, which marks every line with its name.
    this.#warn = options.warn ?? quietLogger.warn;
  }

  /** The whole persisted data as one snapshot document (the store itself uses load). */
  async read(): Promise<unknown> {
    const sink = new DocumentSink();
    await this.load(sink);
    return sink.result();
  }

  /** Streams db.json, then every journal from its generation on, into `sink`. */
  async load(sink: StoreSink): Promise<boolean> {
    let base: unknown = 0;
    let folded: unknown;
    let entries = 0;
    const snapshotBytes = await loadSnapshotFile(this.location, {
      member: (name, value) => {
        if (name === 'generation') base = value;
        if (name === FOLDED_MEMBER) folded = value;
        sink.member(name, value);
      },
      row: (table, row) => {
        entries++;
        sink.row(table, row);
      },
      document: (value) => {
        base = (typeof value === 'object' && value !== null && (value as Record<string, unknown>)['generation']) || 0;
        folded = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[FOLDED_MEMBER] : undefined;
        entries = countRows(value);
        sink.document(value);
      },
      reset: () => {
        base = 0;
        folded = undefined;
        entries = 0;
        sink.reset();
      },
    });
    if (typeof base !== 'number' || !Number.isSafeInteger(base) || base < 0) {
      throw new Error(`"generation" in db.json must be a whole number of 0 or more, not ${JSON.stringify(base)}`);
    }
    this.#snapshotBytes = snapshotBytes ?? 0;
    this.#entries = entries;

    const found = listGenerations(this.dir);
    const { live, older } = matchJournals(found, base, snapshotBytes !== null);
    this.#journals = new Set(found);
    this.#obsolete = [...older.map((generation) => join(this.dir, journalName(generation))), join(this.dir, '.db.json.tmp')];
    this.#generation = live.at(-1) ?? base;
    let records = 0;
    if (live.length > 0) {
      const replay = await replayJournals(
        live.map((generation) => ({ generation, path: join(this.dir, journalName(generation)) })),
        (change) => {
          this.#entries++;
          sink.change(change);
        },
      );
      for (const note of replay.notes) this.#warn(note);
      for (const generation of replay.damaged) this.#damaged.add(generation);
      this.#size = replay.validBytes;
      this.#fileBytes = replay.fileBytes;
      records = replay.records;
    }
    if (this.#shared) records += await this.#claim(sink, readPosition(folded));
    this.#dirty = records > 0;
    this.#checkWritable(snapshotBytes !== null);
    return snapshotBytes !== null || records > 0;
  }

  /** A workspace's entries in the workspaces' journal after `folded` (what its snapshot holds), replayed into `sink`. */
  async #claim(sink: StoreSink, folded: JournalPosition | undefined): Promise<number> {
    const shared = this.#shared;
    if (shared === undefined) return 0;
    await shared.journal.ready();
    const claimed = shared.journal.claim(shared.name, folded, this.#seat);
    for (const { changes, bytes } of claimed) {
      for (const change of changes) {
        this.#entries++;
        sink.change(change);
      }
      this.#size += bytes;
    }
    this.#lastEnd = claimed.at(-1)?.end ?? folded;
    return claimed.length;
  }

  /** The store's data when all of it is written (Store.open gives this; the workspaces' journal folds with it). */
  attach(settled: () => unknown): void {
    this.#settled = settled;
    this.#shared?.journal.loaded(this.#shared.name, this.#seat);
  }

  /**
   * Appends `changes` as one record. `liveRows`, the rows in memory with these changes made,
   * lets the compaction policy tell superseded data from live data (compaction-policy.ts).
   */
  write(changes: readonly Change[], snapshot: () => unknown, liveRows?: number): Promise<void> {
    if (changes.length === 0) return Promise.resolve();
    if (this.#shared) return this.#writeShared(this.#shared, changes, snapshot, liveRows);
    let fd: number;
    try {
      // Nothing is written once another process took the folder over (data-folder-lock.ts).
      this.#lock?.assertHeld();
      fd = this.#fd ?? (this.#opened ? this.#reopen() : this.#open());
      openJournals.used(this);
    } catch (error) {
      return Promise.reject(WriteFailedError.from(error, this.dir, join(this.dir, journalName(this.#generation))));
    }
    const data = this.#dueSnapshot(changes, snapshot, liveRows);
    return this.#append(fd, changes, () => {
      this.#dirty = true;
      this.#entries += changes.length;
      if (data !== undefined) this.#compactInBackground(() => data);
    });
  }

  /**
   * The snapshot to compact into once this write is done, when one is due (the compaction policy,
   * a clear, or the workspaces' journal asking to fold) and none is under way: taken now, when
   * memory holds exactly what this write makes durable (later changes are still the store's, and
   * undone if their own write fails). The journal's bytes so far: this record's are known once written.
   */
  #dueSnapshot(changes: readonly Change[], snapshot: () => unknown, liveRows: number | undefined): unknown {
    const state = { snapshotBytes: this.#snapshotBytes, journalBytes: this.#size, entries: this.#entries + changes.length, liveRows };
    const due = this.#mustFold || shouldCompact(state, this.#compactBytes) || changes.some((change) => change.op === 'clear');
    return due && !this.#compacting && Date.now() >= this.#retryAfter ? snapshot() : undefined;
  }

  /** A workspace's write: its changes go to the workspaces' journal, in the record of this turn. */
  #writeShared(shared: { journal: WorkspacesJournal; name: string }, changes: readonly Change[], snapshot: () => unknown, liveRows: number | undefined): Promise<void> {
    try {
      this.#removeObsolete();
    } catch (error) {
      return Promise.reject(WriteFailedError.from(error, this.dir, this.location));
    }
    const data = this.#dueSnapshot(changes, snapshot, liveRows);
    this.#busy++;
    return shared.journal.append(shared.name, changes).then(
      ({ end, bytes }) => {
        this.#busy--;
        this.#size += bytes;
        this.#lastEnd = end;
        this.#dirty = true;
        this.#entries += changes.length;
        if (data !== undefined) this.#compactInBackground(() => data);
        // Asked to fold while this write was under way: on the next turn, once the store has
        // taken this write's answer (a store that writes again folds with that write instead).
        else if (this.#mustFold) setImmediate(() => this.#fold());
      },
      (error: unknown) => {
        this.#busy--;
        throw error;
      },
    );
  }

  /**
   * The workspaces' journal asks for this workspace's entries in its snapshot: now when every
   * change of the store is written (the snapshot is then exactly what is on disk), else with
   * the next write.
   */
  #fold(): void {
    this.#mustFold = true;
    if (this.#closing || this.#compacting || this.#busy > 0 || Date.now() < this.#retryAfter || this.#lock?.lost !== undefined) return;
    const data = this.#settled?.();
    if (data !== undefined) this.#compactInBackground(() => data);
  }

  /** Resolves once no compaction is running (for tests and tools that read the files). */
  async settled(): Promise<void> {
    while (this.#compacting) await this.#compacting;
  }

  /** Folds the journal into the snapshot (if it holds anything) and closes the files. */
  async close(snapshot: () => unknown): Promise<void> {
    this.#closing = true;
    // A fold asked for meanwhile (a rotation of the workspaces' journal) starts none of its own:
    // two compactions would write the one temporary snapshot file at once.
    while (this.#compacting) await this.#compacting;
    if (this.#dirty && this.#lock?.lost === undefined) {
      this.#compacting = this.#compact(snapshot);
      try {
        await this.#compacting;
      } finally {
        this.#compacting = undefined;
      }
    }
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
    openJournals.closed(this);
    this.#shared?.journal.leave(this.#shared.name, this.#seat);
  }

  /** Closes the journal while nothing is written to it (open-journals.ts); the next write reopens it. */
  closeIdle(): boolean {
    if (this.#busy > 0 || this.#compacting || this.#fd === undefined) return false;
    closeSync(this.#fd);
    this.#fd = undefined;
    return true;
  }

  /** First write: remove obsolete files, open the active journal, cut off a torn record. */
  #open(): number {
    this.#removeObsolete();
    // Never write into a damaged journal: it is kept byte for byte; changes go to the next one.
    const generation = this.#damaged.has(this.#generation) ? this.#generation + 1 : this.#generation;
    if (generation !== this.#generation) {
      this.#generation = generation;
      this.#size = 0;
      this.#fileBytes = 0;
    }
    const active = openJournalForWrites(this.dir, this.#generation, this.#size, this.#fileBytes, this.#fsync);
    this.#fileBytes = this.#size;
    this.#journals.add(this.#generation);
    this.#fd = active;
    this.#opened = true;
    return active;
  }

  /** First write: the files the snapshot made obsolete (older journals, a temp file) are removed. */
  #removeObsolete(): void {
    for (const path of this.#obsolete) rmSync(path, { force: true });
    this.#obsolete = [];
  }

  /** The active journal again, after it was closed while idle: records still go at #size. */
  #reopen(): number {
    this.#fd = openSync(join(this.dir, journalName(this.#generation)), constants.O_RDWR | constants.O_CREAT);
    return this.#fd;
  }

  /**
   * Writes the record of `changes` at the end of the valid part of the journal, off the event
   * loop (the journal writer, journal-writer.ts: Node's thread pool), so a slow or frozen disk never stalls
   * reads; with fsync, fdatasync follows. The store sends one write at a time (group commit). A failed
   * write leaves #size where it was and cuts off what it left behind: the next record goes there.
   */
  #append(fd: number, changes: readonly Change[], written: () => void): Promise<void> {
    const position = this.#size;
    const generation = this.#generation;
    this.#busy++;
    return this.#writer.append(fd, changes, position, this.#fsync).then(
      (bytes) => {
        this.#busy--;
        this.#size = position + bytes;
        written();
      },
      (error: NodeJS.ErrnoException) =>
        new Promise<never>((_, reject) =>
          ftruncate(fd, position, () => {
            this.#busy--;
            reject(WriteFailedError.from(error, this.dir, join(this.dir, journalName(generation))));
          }),
        ),
    );
  }

  /**
   * Refuses to start when a file the sandbox will write is not writable (a read-only mount,
   * `chattr +i`, permissions): better than starting and then refusing every change.
   */
  #checkWritable(snapshot: boolean): void {
    assertWritable(this.dir, 'the data folder');
    if (snapshot) assertWritable(this.location, 'the snapshot');
    if (this.#journals.has(this.#generation) && !this.#damaged.has(this.#generation)) {
      assertWritable(join(this.dir, journalName(this.#generation)), 'the journal');
    }
  }

  #compactInBackground(snapshot: () => unknown): void {
    if (this.#closing || this.#compacting || Date.now() < this.#retryAfter || this.#lock?.lost !== undefined) return;
    this.#compacting = this.#compact(snapshot)
      .catch((error: unknown) => {
        this.#retryAfter = Date.now() + RETRY_MS;
        this.#warn(`could not compact the journal into ${this.location} (will retry; no data is lost): ${(error as Error).message}`);
      })
      .finally(() => {
        this.#compacting = undefined;
        // Asked to fold while this compaction ran (it may hold less than was asked for).
        if (this.#mustFold) setImmediate(() => this.#fold());
      });
  }

  /**
   * Switches new writes to the next journal generation and writes the snapshot of this
   * moment with that generation; then removes the journals it replaces. Callers never
   * run two at once (close waits for the background one).
   */
  async #compact(snapshot: () => unknown): Promise<void> {
    const { version, ...tables } = snapshot() as Record<string, unknown>;
    const next = this.#generation + 1;
    // A workspace's snapshot holds its entries of the workspaces' journal up to its newest one written.
    const upTo = this.#lastEnd;
    const asked = this.#mustFold;
    this.#mustFold = false;
    if (this.#shared) {
      this.#removeObsolete();
    } else {
      // Synchronous switch: every change not yet written goes to the new journal.
      if (this.#fd === undefined && !this.#opened) this.#open();
      const fd = openSync(join(this.dir, journalName(next)), 'w+');
      if (this.#fsync) syncFolderSync(this.dir);
      if (this.#fd !== undefined) closeSync(this.#fd);
      this.#fd = fd;
      openJournals.used(this);
      this.#journals.add(next);
    }
    this.#generation = next;
    this.#size = 0;
    this.#fileBytes = 0;
    this.#entries = countRows(tables);
    this.#dirty = false;
    try {
      const folded = this.#shared && upTo ? { [FOLDED_MEMBER]: upTo } : {};
      this.#snapshotBytes = await writeSnapshotFile(this.location, { version, generation: next, ...folded, ...tables }, { fsync: true });
    } catch (error) {
      this.#dirty = true;
      this.#mustFold ||= asked;
      throw error;
    }
    if (this.#shared) this.#shared.journal.folded(this.#shared.name, upTo);
    for (const generation of [...this.#journals].filter((g) => g < next)) {
      const path = join(this.dir, journalName(generation));
      if (this.#damaged.has(generation)) {
        renameSync(path, join(this.dir, `journal.${generation}.damaged.ndjson`));
        this.#damaged.delete(generation);
      } else {
        rmSync(path, { force: true });
      }
      this.#journals.delete(generation);
    }
  }
}

/** The rows of a snapshot document: the items of its arrays (its tables). */
function countRows(document: unknown): number {
  if (typeof document !== 'object' || document === null) return 0;
  let rows = 0;
  for (const value of Object.values(document)) if (Array.isArray(value)) rows += value.length;
  return rows;
}

/** The place a workspace's db.json says it holds its entries up to, or undefined (none, or not a place). */
function readPosition(value: unknown): JournalPosition | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { generation, offset } = value as Record<string, unknown>;
  return Number.isSafeInteger(generation) && Number.isSafeInteger(offset) ? { generation: generation as number, offset: offset as number } : undefined;
}
