import { closeSync, constants, fsyncSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { readLines } from './read-lines.js';
import { journalName } from './journal-generations.js';
import { decodeRecord, isTornRecord } from './journal-record.js';
import { syncFolderSync } from './snapshot-file.js';
import type { Change } from './table.js';

export interface JournalFileRef {
  generation: number;
  path: string;
}

export interface JournalReplay {
  /** Valid records applied. */
  records: number;
  /** Bytes of the last journal up to the end of its last valid record: where the next one goes. */
  validBytes: number;
  /** Bytes of the last journal on disk. */
  fileBytes: number;
  /**
   * Generations whose files hold damage: complete lines that fail their check (anywhere), or
   * bytes at the end that are not a record cut short. Such a file is never written to or
   * cut: it is kept aside as it is.
   */
  damaged: number[];
  /** What was dropped or skipped, for the log. */
  notes: string[];
}

interface Bad {
  offset: number;
  reason: string;
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** Where a record is: its file's generation, the offset just past its line, and its length in bytes. */
export interface RecordPlace {
  generation: number;
  end: number;
  bytes: number;
}

/** How readJournals takes records apart and names what it skips (the defaults are a store's own journal's). */
export interface ReadJournalsOptions<T> {
  /** What a line holds once its frame checks (journal-record.ts), or why it is not a record. */
  decode: (line: Buffer) => { ok: true; value: T } | { ok: false; reason: string };
  apply: (value: T, place: RecordPlace) => void;
  /** The file's name in notes. Default `journal.<generation>.ndjson`. */
  name?: (generation: number) => string;
  /** Said after the reason a complete line is damaged (e.g. whose changes it seems to hold). */
  describeDamage?: (line: Buffer) => string;
  /** When a damaged file is put aside. Default: when the journal is next compacted. */
  keptAside?: string;
}

/**
 * Reads journals, oldest first, and passes every change of every valid record to `apply`
 * (a store's own journal; readJournals says what happens to a torn or damaged record).
 */
export function replayJournals(journals: readonly JournalFileRef[], apply: (change: Change) => void): Promise<JournalReplay> {
  return readJournals(journals, {
    decode: (line) => {
      const decoded = decodeRecord(line);
      return decoded.ok ? { ok: true, value: decoded.changes } : decoded;
    },
    apply: (changes) => {
      for (const change of changes) apply(change);
    },
  });
}

/**
 * Reads journals, oldest first, and passes what every valid record holds to `options.apply`
 * (a store's own journal: replayJournals; the workspaces' journal: workspaces-journal.ts).
 *
 * - A torn write: the last line of the last journal has no line end and is the start of a
 *   record cut short. It is dropped (the next record overwrites it; cutTornRecord copies its
 *   bytes aside first): a write cut short at a stop was never acknowledged, but a file cut short
 *   (a copy taken while in use, a truncation) lost what followed, and the note cannot tell which.
 * - Damage: a complete line that fails its length or checksum check (a write that stopped
 *   cannot end a line), anywhere in any journal, or bytes at a file's end that are not a
 *   record cut short. Skipped; the file is reported and kept byte for byte.
 */
export async function readJournals<T>(journals: readonly JournalFileRef[], options: ReadJournalsOptions<T>): Promise<JournalReplay> {
  const { decode, apply, name: nameOf = journalName, describeDamage = () => '', keptAside = 'when the journal is next compacted' } = options;
  const result: JournalReplay = { records: 0, validBytes: 0, fileBytes: 0, damaged: [], notes: [] };
  for (const [index, { generation, path }] of journals.entries()) {
    const name = nameOf(generation);
    const last = index === journals.length - 1;
    let validEnd = 0;
    let end = 0;
    let records = 0;
    const bad: Bad[] = [];
    let torn: Bad | undefined;
    await readLines(path, (bytes, offset, complete) => {
      end = offset + bytes.length + (complete ? 1 : 0);
      if (!complete) {
        if (last && isTornRecord(bytes)) torn = { offset, reason: `${bytes.length} bytes with no line end` };
        else bad.push({ offset, reason: `${bytes.length} bytes at the end of the file with no line end that do not start a record` });
        return;
      }
      const decoded = decode(bytes);
      if (!decoded.ok) {
        bad.push({ offset, reason: `${decoded.reason}${describeDamage(bytes)}` });
        return;
      }
      apply(decoded.value, { generation, end, bytes: bytes.length });
      records++;
      validEnd = end;
    });
    result.records += records;
    const first = bad[0];
    if (first) {
      result.damaged.push(generation);
      const mostly = bad.length > records ? ` The file is mostly not journal records (${bad.length} damaged, ${records} valid): it was probably overwritten.` : '';
      result.notes.push(
        `${name}: skipped ${plural(bad.length, 'damaged record')} (first at byte ${first.offset}: ${first.reason}); ${plural(records, 'valid record')} loaded.${mostly} ` +
          `Damage is not a write cut short, so nothing is cut off: the file is left byte for byte as it is, new changes go to a new journal, ` +
          `and it is kept as journal.${generation}.damaged.ndjson ${keptAside}.`,
      );
    }
    if (torn) {
      result.notes.push(
        `${name}: dropped an incomplete last record (${torn.reason}, from byte ${torn.offset}); everything before it is loaded. ` +
          'Either a write was cut short as the sandbox stopped (a record is acknowledged only once written whole: then nothing acknowledged is lost), ' +
          `or the file itself was cut short (copied while in use, truncated, a crash of the machine): then whatever followed byte ${torn.offset} is gone, and the sandbox cannot tell which. ` +
          (first
            ? 'Its bytes stay in that file, which is kept as it is (above).'
            : `Its bytes are copied to ${tornName(generation, torn.offset)}, beside the journal, before the next change is written over them.`),
      );
    }
    result.validBytes = validEnd;
    result.fileBytes = end;
  }
  return result;
}

/** The file a torn record's bytes are copied to, beside its journal (never read again). */
export const tornName = (generation: number, offset: number): string => `journal.${generation}.torn-${offset}.ndjson`;

/**
 * Cuts a torn record (bytes `from`..`to`) off the journal of `generation` in `dir`, open as
 * `fd`, after copying its bytes to tornName() beside it: they are the only trace of what a file
 * cut short lost. A copy that fails (a full disk) fails the write that needed the cut. Called
 * again for a record already cut (nothing left at `from`), it leaves the copy as it is.
 */
export function cutTornRecord(fd: number, dir: string, generation: number, from: number, to: number, fsync = true): void {
  const bytes = Buffer.alloc(to - from);
  const read = readSync(fd, bytes, 0, bytes.length, from);
  if (read === 0) return;
  const copy = openSync(join(dir, tornName(generation, from)), 'w');
  try {
    writeSync(copy, bytes, 0, read);
    if (fsync) fsyncSync(copy);
  } finally {
    closeSync(copy);
  }
  ftruncateSync(fd, from);
}

/**
 * Opens (creating it) the journal of `generation` in `dir` for a journal's first write: positional
 * writes go at `valid`, so a torn record after it (`fileBytes` > `valid`) is cut off first
 * (cutTornRecord), and the folder is synced so the file and the copy are there after a power cut.
 * On failure nothing is left open and the error is thrown: the next write opens the journal again.
 */
export function openJournalForWrites(dir: string, generation: number, valid: number, fileBytes: number, fsync: boolean): number {
  // Not O_APPEND: records go at `valid` with positional writes, over a cut-off record if any.
  const fd = openSync(join(dir, journalName(generation)), constants.O_RDWR | constants.O_CREAT);
  try {
    if (fileBytes > valid) cutTornRecord(fd, dir, generation, valid, fileBytes, fsync);
    if (fsync) syncFolderSync(dir);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}
