import { readLines } from './read-lines.js';
import { decodeRecord } from './journal-record.js';
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
  /** Generations whose files hold damaged records followed by valid ones. */
  damaged: number[];
  /** What was dropped or skipped, for the log. */
  notes: string[];
}

interface Bad {
  offset: number;
  reason: string;
}

/**
 * Reads journals, oldest first, and passes every change of every valid record to `apply`.
 * Invalid records at a file's end (a write cut short) are dropped; invalid records
 * followed by valid ones are skipped and reported.
 */
export async function replayJournals(journals: readonly JournalFileRef[], apply: (change: Change) => void): Promise<JournalReplay> {
  const result: JournalReplay = { records: 0, validBytes: 0, fileBytes: 0, damaged: [], notes: [] };
  for (const { generation, path } of journals) {
    const name = `journal.${generation}.ndjson`;
    let validEnd = 0;
    let end = 0;
    let pending: Bad[] = [];
    let skipped = 0;
    let firstSkipped: Bad | undefined;
    await readLines(path, (bytes, offset, complete) => {
      end = offset + bytes.length + (complete ? 1 : 0);
      const decoded = complete ? decodeRecord(bytes) : ({ ok: false, reason: 'no line end' } as const);
      if (!decoded.ok) {
        pending.push({ offset, reason: decoded.reason });
        return;
      }
      if (pending.length > 0) {
        skipped += pending.length;
        firstSkipped ??= pending[0];
        pending = [];
      }
      for (const change of decoded.changes) apply(change);
      result.records++;
      validEnd = end;
    });
    const torn = pending[0];
    if (torn) {
      result.notes.push(
        `${name}: dropped ${pending.length === 1 ? 'an incomplete record' : `${pending.length} invalid records`} at its end (${end - torn.offset} bytes from byte ${torn.offset}: ${torn.reason}), ` +
          'written as the sandbox stopped. Everything before it is loaded.',
      );
    }
    if (firstSkipped) {
      result.damaged.push(generation);
      result.notes.push(
        `${name}: skipped ${skipped} damaged record${skipped === 1 ? '' : 's'} in the middle of the file (first at byte ${firstSkipped.offset}: ${firstSkipped.reason}); the records after ${skipped === 1 ? 'it' : 'them'} are loaded. ` +
          `The file will be kept as journal.${generation}.damaged.ndjson when the journal is next compacted.`,
      );
    }
    result.validBytes = validEnd;
    result.fileBytes = end;
  }
  return result;
}
