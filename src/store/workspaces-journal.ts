import { closeSync, existsSync, ftruncate, mkdirSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { JOURNAL_GROWTH_LIMIT } from './compaction-policy.js';
import { DataFolderLock } from './data-folder-lock.js';
import { journalName, listGenerations } from './journal-generations.js';
import { decodeFrame, isChange } from './journal-record.js';
import { openJournalForWrites, readJournals } from './journal-replay.js';
import { type JournalWriter, journalWriter } from './journal-writer.js';
import { syncFolderSync } from './snapshot-file.js';
import { WORKSPACES_JOURNAL_NAME, WORKSPACES_NAME } from './workspace-folders.js';
import { WriteFailedError } from './write-failed-error.js';
import type { Change } from './table.js';
import { quietLogger } from '../log/logger.js';

/** A place in the workspaces' journal: the end of a record (`offset` bytes into `journal.<generation>.ndjson`). */
export interface JournalPosition {
  generation: number;
  offset: number;
}

/** Whether `a` comes before `b` in the journal. */
export const isBefore = (a: JournalPosition, b: JournalPosition): boolean => a.generation < b.generation || (a.generation === b.generation && a.offset < b.offset);

/** A workspace's record written: where it ends, and its share of the record's bytes (for its compaction policy). */
export interface Appended {
  end: JournalPosition;
  bytes: number;
}

/** What a workspace's store adapter offers the journal: folding its records into its snapshot (soon, in the background). */
export interface JournalSeat {
  fold(): void;
}

/** The records of one workspace read at start-up, until its store claims them. */
export interface Claimed {
  changes: Change[];
  end: JournalPosition;
  bytes: number;
}

/** One entry of a record: a workspace's changes, or null when the workspace was removed (every earlier entry of that name no longer counts). */
type Entry = [name: string, changes: readonly Change[] | null];

interface Pending {
  name: string;
  changes: readonly Change[] | null;
  resolve: (appended: Appended) => void;
  reject: (error: unknown) => void;
}

export interface WorkspacesJournalOptions {
  /** fdatasync after every record (as the server's own journal). */
  fsync?: boolean;
  /** Where notes go (a damaged or cut-off record at start-up). */
  warn?: (message: string) => void;
  /**
   * Start a new generation once the active one holds this many bytes; its workspaces then fold
   * their records in (each writes its whole snapshot, so this is a bound, not a routine: a
   * workspace's own compaction policy folds it in when that pays). Default 256 MiB, the bound of
   * a store's own journal of new rows (compaction-policy.ts).
   */
  rotateBytes?: number;
  writer?: JournalWriter;
}

/**
 * The workspaces' journal: one append-only journal for every workspace of a data folder
 * (`<data>/workspaces/@journal/journal.<generation>.ndjson`), beside each workspace's snapshot
 * (`<data>/workspaces/<name>/db.json`). Its folder's name holds `@`, which no workspace name
 * does, so no workspace folder can ever be, or stand in the way of, a file of the journal.
 *
 * Why one: the group commits of the workspaces that change in one turn of the event loop become
 * ONE record, so busy workspaces cost one write(2) and one framing a turn, as one busy sandbox
 * does, not one each.
 *
 * - A record is the usual frame (journal-record.ts) around a list of entries `[name, changes]`;
 *   `[name, null]` says the workspace was removed: its earlier entries no longer count, so a
 *   workspace created later under that name starts empty.
 * - A workspace's snapshot says up to where in this journal it holds its changes
 *   (`"workspaces_journal": {generation, offset}` in its db.json); at start-up it replays its
 *   entries after that place. A place is never used twice for one workspace: when a snapshot
 *   holds up to a place at or past where the next record would go (the journal was removed by
 *   a clean stop, or cut), records go to a new generation past it before that workspace writes,
 *   so its later entries can never be taken for ones its snapshot already holds.
 * - Once the active generation reaches `rotateBytes` (256 MiB), new records go to the next one, and every
 *   workspace with entries in an older one folds them into its snapshot; a generation is
 *   removed once no workspace needs it (oldest first, so a removal entry outlives the entries
 *   it cancels). A clean stop folds every workspace in and leaves no journal.
 * - A torn last record is cut off; a damaged one is skipped (named in a note) and its file kept
 *   aside as `journal.<generation>.damaged.ndjson`, never written again.
 * Writes go through the journal writer (journal-writer.ts), off the event loop, one at a time;
 * what is asked for meanwhile leaves together in the next record.
 */
export class WorkspacesJournal {
  /** The journal's own folder (`<workspaces>/@journal`). */
  readonly folder: string;
  /** Where a journal of an earlier layout may be: the workspaces' folder itself. */
  readonly #legacyFolder: string;
  readonly #fsync: boolean;
  readonly #warn: (message: string) => void;
  readonly #rotateBytes: number;
  readonly #writer: JournalWriter;
  readonly #lock: DataFolderLock | undefined;
  #ready: Promise<void> | undefined;
  /** Start-up: each workspace's entries, until its store claims them. */
  #loaded = new Map<string, Claimed[]>();
  /** Start-up: the time of the newest file holding each workspace's entries. */
  readonly #lastWrite = new Map<string, number>();
  /** The generation new records go to; the generations on disk; those holding damage. */
  #generation = 0;
  readonly #generations = new Set<number>();
  readonly #damaged = new Set<number>();
  #fd: number | undefined;
  /** Valid bytes of the active generation (where the next record goes), and its bytes on disk when read. */
  #size = 0;
  #fileBytes = 0;
  /** The furthest place a loaded workspace's snapshot holds up to: every record from now on must end past it. */
  #floor: JournalPosition | undefined;
  #next: Pending[] = [];
  #scheduled = false;
  #writing = false;
  #idle: Array<() => void> = [];
  /** Each workspace with entries not folded into its snapshot: the oldest generation holding them. */
  readonly #owing = new Map<string, number>();
  /** The end of each workspace's newest entry. */
  readonly #lastEnd = new Map<string, JournalPosition>();
  readonly #seats = new Map<string, JournalSeat>();
  /** False until the workspaces there are are known (settle): until then no generation is removed. */
  #settled = false;
  #closed = false;

  /** `workspaces`: the folder of the workspaces (`<data>/workspaces`); the journal lives in its sub-folder `@journal`. */
  constructor(workspaces: string, options: WorkspacesJournalOptions = {}) {
    this.folder = join(workspaces, WORKSPACES_JOURNAL_NAME);
    this.#legacyFolder = workspaces;
    this.#fsync = options.fsync ?? false;
    this.#warn = options.warn ?? quietLogger.warn;
    this.#rotateBytes = options.rotateBytes ?? JOURNAL_GROWTH_LIMIT * 64 * 1024 * 1024;
    this.#writer = options.writer ?? journalWriter;
    this.#lock = DataFolderLock.covering(dirname(workspaces))?.lock;
  }

  /** Reads the journal once (every caller waits for the same read). */
  ready(): Promise<void> {
    this.#ready ??= this.#read();
    return this.#ready;
  }

  /** When workspace `name` last wrote an entry still in the journal (0 if none): its last use, for --workspace-ttl after a restart. */
  lastWrite(name: string): number {
    return this.#lastWrite.get(name) ?? 0;
  }

  /**
   * Workspace `name`'s entries after `after` (the place its snapshot holds up to), from the
   * start-up read; `seat` is asked to fold them in when their generation is to be removed. They
   * stay until loaded() says its store holds them, so a load that fails can be tried again.
   */
  claim(name: string, after: JournalPosition | undefined, seat: JournalSeat): Claimed[] {
    this.#seats.set(name, seat);
    if (after !== undefined && (this.#floor === undefined || isBefore(this.#floor, after))) this.#floor = after;
    const entries = (this.#loaded.get(name) ?? []).filter((entry) => after === undefined || isBefore(after, entry.end));
    const first = entries[0];
    const last = entries.at(-1);
    if (first && last) {
      this.#owing.set(name, first.end.generation);
      this.#lastEnd.set(name, last.end);
    } else {
      this.#owing.delete(name);
    }
    return entries;
  }

  /**
   * Workspace `name`'s store is loaded, with the entries it claimed (or was made new): the
   * start-up copy is let go, and `seat` is asked to fold in when a generation is to be removed.
   */
  loaded(name: string, seat: JournalSeat): void {
    this.#loaded.delete(name);
    this.#seats.set(name, seat);
  }

  /**
   * `names` are the workspaces there are (their folders, at start-up): entries of any other name
   * are of folders removed by hand, and are let go. From then on a generation no workspace needs
   * is removed (those of workspaces not loaded yet are kept until they are).
   */
  settle(names: ReadonlySet<string>): void {
    for (const name of [...this.#loaded.keys()]) {
      if (names.has(name)) continue;
      this.#loaded.delete(name);
      this.#owing.delete(name);
    }
    this.#settled = true;
    this.#collect();
  }

  /** Appends workspace `name`'s changes (in the record of this turn); resolves once written. */
  append(name: string, changes: readonly Change[]): Promise<Appended> {
    return this.#enqueue(name, changes);
  }

  /** Records that workspace `name` was removed: its entries so far no longer count. Resolves once written. */
  async remove(name: string): Promise<void> {
    await this.#enqueue(name, null);
    this.#loaded.delete(name);
    this.#owing.delete(name);
    this.#lastEnd.delete(name);
    this.#seats.delete(name);
    this.#collect();
  }

  /** Workspace `name`'s snapshot now holds its entries up to `upTo` (all of them when undefined). */
  folded(name: string, upTo: JournalPosition | undefined): void {
    const last = this.#lastEnd.get(name);
    if (last === undefined || upTo === undefined || !isBefore(upTo, last)) this.#owing.delete(name);
    else this.#owing.set(name, upTo.generation);
    this.#collect();
  }

  /** Workspace `name`'s store closed: it is asked nothing more. */
  leave(name: string, seat: JournalSeat): void {
    if (this.#seats.get(name) === seat) this.#seats.delete(name);
  }

  /** Waits for the writes under way; removes every generation when no workspace needs one (a clean stop), and closes the file. */
  async close(): Promise<void> {
    this.#closed = true;
    while (this.#writing || this.#next.length > 0) await new Promise<void>((resolve) => this.#idle.push(resolve));
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
    if (this.#settled && this.#owing.size === 0 && this.#lock?.lost === undefined) {
      for (const generation of [...this.#generations].sort((a, b) => a - b)) this.#removeGeneration(generation);
      // Its folder too, once empty (a damaged journal kept aside stays, and so does the folder).
      if (this.#generations.size === 0) removeIfEmpty(this.folder);
    }
  }

  #enqueue(name: string, changes: readonly Change[] | null): Promise<Appended> {
    return new Promise<Appended>((resolve, reject) => {
      this.#next.push({ name, changes, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        // After the other workspaces that write in this turn have added theirs.
        queueMicrotask(() => this.#send());
      }
    });
  }

  async #read(): Promise<void> {
    this.#adoptLegacyFiles();
    const found = listGenerations(this.folder);
    const files = found.map((generation) => ({ generation, path: join(this.folder, journalName(generation)) }));
    // Each file's time: the last use of the workspaces whose newest entries it holds.
    const mtimes = new Map(files.map(({ generation, path }) => [generation, modified(path)]));
    const replay = await readJournals(files, {
      decode: decodeEntries,
      name: (generation) => `${WORKSPACES_NAME}/${WORKSPACES_JOURNAL_NAME}/${journalName(generation)}`,
      describeDamage: namesIn,
      keptAside: 'once every workspace has folded the rest in (the changes in a damaged record are lost for the workspaces that wrote them)',
      apply: (entries, { generation, end, bytes }) => {
        const position = { generation, offset: end };
        const share = shareOfBytes(bytes, entries);
        for (const [name, changes] of entries) {
          if (changes === null) {
            this.#loaded.delete(name);
            this.#lastWrite.delete(name);
            continue;
          }
          const list = this.#loaded.get(name) ?? [];
          if (list.length === 0) this.#loaded.set(name, list);
          list.push({ changes: changes as Change[], end: position, bytes: share(changes) });
          this.#lastWrite.set(name, mtimes.get(generation) ?? Date.now());
        }
      },
    });
    for (const generation of found) this.#generations.add(generation);
    for (const generation of replay.damaged) this.#damaged.add(generation);
    for (const note of replay.notes) this.#warn(note);
    const newest = found.at(-1);
    if (newest !== undefined) {
      this.#generation = newest;
      this.#size = replay.validBytes;
      this.#fileBytes = replay.fileBytes;
    }
    // Never write into a damaged journal: changes go to the next one.
    if (this.#damaged.has(this.#generation)) {
      this.#generation++;
      this.#size = 0;
      this.#fileBytes = 0;
    }
    for (const [name, entries] of this.#loaded) {
      const first = entries[0];
      if (first) this.#owing.set(name, first.end.generation);
    }
  }

  #send(): void {
    this.#scheduled = false;
    if (this.#writing || this.#next.length === 0) return;
    const batch = this.#next;
    this.#next = [];
    this.#passFloor();
    const path = join(this.folder, journalName(this.#generation));
    let fd: number;
    try {
      this.#lock?.assertHeld();
      fd = this.#fd ?? this.#open();
    } catch (error) {
      const failure = WriteFailedError.from(error, this.folder, path);
      for (const pending of batch) pending.reject(failure);
      this.#drained();
      return;
    }
    const entries: Entry[] = batch.map(({ name, changes }) => [name, changes]);
    const position = this.#size;
    const generation = this.#generation;
    this.#writing = true;
    this.#writer.append(fd, entries, position, this.#fsync).then(
      (bytes) => {
        this.#size = position + bytes;
        const end = { generation, offset: this.#size };
        const share = shareOfBytes(bytes, entries);
        for (const { name, changes, resolve } of batch) {
          if (changes !== null) {
            this.#lastEnd.set(name, end);
            if (!this.#owing.has(name)) this.#owing.set(name, generation);
          }
          resolve({ end, bytes: share(changes) });
        }
        this.#written();
      },
      (error: NodeJS.ErrnoException) => {
        // What a failed write left behind is cut off: the next record goes there.
        ftruncate(fd, position, () => {
          const failure = WriteFailedError.from(error, this.folder, path);
          for (const pending of batch) pending.reject(failure);
          this.#written();
        });
      },
    );
  }

  #written(): void {
    this.#writing = false;
    if (this.#size >= this.#rotateBytes && !this.#closed) this.#rotate();
    if (this.#next.length > 0) this.#send();
    else this.#drained();
  }

  #drained(): void {
    if (this.#writing || this.#next.length > 0) return;
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  /**
   * The next record must end past every place a loaded workspace's snapshot holds up to: when it
   * would not (the generation was removed by a clean stop, or cut short), records go on in a new
   * generation past that place. Called between writes only.
   */
  #passFloor(): void {
    const floor = this.#floor;
    if (floor === undefined || isBefore(floor, { generation: this.#generation, offset: this.#size })) return;
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
    this.#generation = Math.max(this.#generation, floor.generation) + 1;
    this.#size = 0;
    this.#fileBytes = 0;
  }

  /**
   * The journal of an earlier layout, written straight into the workspaces' folder (where a
   * workspace folder could take its name): its files are moved into the journal's folder, keeping
   * their generations, before anything is read. Folders of those names are workspaces, and stay.
   */
  #adoptLegacyFiles(): void {
    const legacy = listGenerations(this.#legacyFolder).filter((generation) => statSync(join(this.#legacyFolder, journalName(generation))).isFile());
    if (legacy.length === 0) return;
    if (mkdirSync(this.folder, { recursive: true }) !== undefined && this.#fsync) syncFolderSync(this.#legacyFolder);
    for (const generation of legacy) {
      const target = join(this.folder, journalName(generation));
      if (existsSync(target)) {
        this.#warn(
          `${WORKSPACES_NAME}/${journalName(generation)} was left where it is: ${WORKSPACES_NAME}/${WORKSPACES_JOURNAL_NAME}/${journalName(generation)} exists too (move one of them away by hand)`,
        );
        continue;
      }
      renameSync(join(this.#legacyFolder, journalName(generation)), target);
    }
    if (this.#fsync) syncFolderSync(this.folder);
  }

  /** First write: the active generation, opened; a record cut short at its end is cut off. */
  #open(): number {
    if (mkdirSync(this.folder, { recursive: true }) !== undefined && this.#fsync) syncFolderSync(this.#legacyFolder);
    // Known before it is opened: a file created by an open that then failed is removed with the rest.
    this.#generations.add(this.#generation);
    const fd = openJournalForWrites(this.folder, this.#generation, this.#size, this.#fileBytes, this.#fsync);
    this.#fd = fd;
    this.#fileBytes = this.#size;
    return fd;
  }

  /** New records go to the next generation; every workspace with entries in an older one is asked to fold them in. */
  #rotate(): void {
    try {
      if (this.#fd !== undefined) closeSync(this.#fd);
    } finally {
      this.#fd = undefined;
    }
    this.#generation++;
    this.#size = 0;
    this.#fileBytes = 0;
    for (const [name, oldest] of this.#owing) if (oldest < this.#generation) this.#seats.get(name)?.fold();
  }

  /** Removes the generations no workspace needs, oldest first. */
  #collect(): void {
    if (!this.#settled || this.#lock?.lost !== undefined) return;
    let needed = this.#generation;
    for (const oldest of this.#owing.values()) needed = Math.min(needed, oldest);
    for (const generation of [...this.#generations].sort((a, b) => a - b)) {
      if (generation >= needed) return;
      this.#removeGeneration(generation);
    }
  }

  #removeGeneration(generation: number): void {
    const path = join(this.folder, journalName(generation));
    try {
      if (this.#damaged.has(generation)) renameSync(path, join(this.folder, `journal.${generation}.damaged.ndjson`));
      else rmSync(path, { force: true });
      this.#generations.delete(generation);
      this.#damaged.delete(generation);
    } catch (error) {
      this.#warn(`could not remove ${path} (no data is lost; it is tried again later): ${(error as Error).message}`);
    }
  }
}

/**
 * A workspace's share of a record's `bytes`, by its count of changes among the record's `entries`
 * (a removal counts one): what its compaction policy counts as its journal's growth.
 */
function shareOfBytes(bytes: number, entries: readonly Entry[]): (changes: readonly Change[] | null) => number {
  const total = entries.reduce((sum, [, changes]) => sum + (changes?.length ?? 1), 0);
  return (changes) => Math.round((bytes * (changes?.length ?? 1)) / total);
}

/** The entries of one line of the workspaces' journal, or why it is not one. */
function decodeEntries(line: Buffer): { ok: true; value: Entry[] } | { ok: false; reason: string } {
  const frame = decodeFrame(line);
  if (!frame.ok) return frame;
  const entries = frame.payload;
  const valid =
    Array.isArray(entries) &&
    entries.every((entry) => Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string' && (entry[1] === null || (Array.isArray(entry[1]) && (entry[1] as unknown[]).every(isChange))));
  return valid ? { ok: true, value: entries as Entry[] } : { ok: false, reason: 'not a list of workspace changes' };
}

/** Removes `folder` when it is empty; leaves it otherwise (or when it is gone already). */
function removeIfEmpty(folder: string): void {
  try {
    rmdirSync(folder);
  } catch {
    // Not empty (a damaged journal kept aside), or not there.
  }
}

/** A file's modification time, or now when it is gone. */
function modified(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Date.now();
  }
}

/** The workspace names a damaged line seems to hold, for the note ("" when none can be read). */
function namesIn(line: Buffer): string {
  const names = new Set<string>();
  for (const match of line.toString('utf8').matchAll(/\["([A-Za-z0-9_.-]{1,64})",[[n]/g)) if (match[1]) names.add(match[1]);
  return names.size === 0 ? '' : ` (it seems to hold changes of ${[...names].map((name) => `"${name}"`).join(', ')})`;
}
