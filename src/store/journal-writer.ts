import { fdatasync, write } from 'node:fs';
import { encodeRecord } from './journal-record.js';

/**
 * One record to append: the line of a group commit's `changes` (journal-record.ts) at `position`
 * of the open file `fd`, then fdatasync when `sync`; resolves with the line's length in bytes.
 */
interface Append {
  fd: number;
  /** What the record holds: a store's changes, or the entries of the workspaces' journal. */
  changes: readonly unknown[];
  position: number;
  sync: boolean;
  resolve: (bytes: number) => void;
  reject: (error: NodeJS.ErrnoException) => void;
}

/**
 * Appends journal records off the event loop, for every journal of the process (the default
 * sandbox's and the workspaces' journal; a program may hold other sandboxes too). Each record is
 * one positional `fs.write` in Node's thread pool (retried until whole), then fdatasync when
 * asked. One write is under way at a time across journals, so a slow or frozen disk holds one of
 * the pool's threads (which also serve file reads and DNS lookups), never all of them; the records
 * asked for meanwhile are written next, in the order asked. Records of one journal never overtake
 * each other: its store sends the next only once the one under way has returned. Nothing keeps
 * the process alive once nothing is being written.
 */
export class JournalWriter {
  #queue: Append[] = [];
  #writing = false;

  /**
   * Writes the record of a group commit's `changes` (journal-record.ts) at `position` of `fd`,
   * then fdatasync when `sync`; resolves with the record's length in bytes, rejects with the
   * system error. The changes are turned into JSON when their write starts (now, or once the
   * writes asked for before are done): rows are never changed in place (table.ts), so that is the
   * JSON of this moment.
   */
  append(fd: number, changes: readonly unknown[], position: number, sync: boolean): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.#queue.push({ fd, changes, position, sync, resolve, reject });
      if (!this.#writing) this.#next();
    });
  }

  #next(): void {
    const append = this.#queue.shift();
    this.#writing = append !== undefined;
    if (append === undefined) return;
    const { fd, position, sync } = append;
    let line: Buffer;
    try {
      line = encodeRecord(append.changes);
    } catch (error) {
      // Changes JSON cannot hold (never made by the store): refused alone; the others are written.
      append.reject(error as NodeJS.ErrnoException);
      this.#next();
      return;
    }
    const done = (error: NodeJS.ErrnoException | null): void => {
      if (error) append.reject(error);
      else append.resolve(line.length);
      this.#next();
    };
    const from = (offset: number): void =>
      write(fd, line, offset, line.length - offset, position + offset, (error, written) => {
        if (error) done(error);
        else if (offset + written < line.length) from(offset + written);
        else if (sync) fdatasync(fd, done);
        else done(null);
      });
    from(0);
  }
}

/** The writer of this process: every journal appends through it. */
export const journalWriter = new JournalWriter();
