import { createReadStream } from 'node:fs';
import { type FileHandle, open, rename, rm, stat } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { basename, dirname, join } from 'node:path';
import { JSONFile } from 'lowdb/node';
import type { StoreSink } from './adapter.js';
import { readTextChunks } from './read-text-chunks.js';

/**
 * The snapshot file (`db.json`): one JSON object whose arrays hold one row per line.
 *
 *   {
 *     "version": 1,
 *     "generation": 3,
 *     "trades": [
 *       {"id":"...","order":"..."},
 *       {"id":"...","order":"..."}
 *     ],
 *     "jobs": [],
 *     "checksum": "crc32:0a1b2c3d"
 *   }
 *
 * `checksum` (always last) is the CRC-32 of every byte before its line; a file whose bytes
 * do not match is refused at start-up.
 *
 * Any JSON reader (lowdb's JSONFile, jq, an editor) reads it. Written to a temp file that
 * is renamed over the old one, so a crash leaves either the old file or the new one.
 */

/** Receives a snapshot file's content: streamed members and rows, or the whole document. */
export type SnapshotVisitor = Omit<StoreSink, 'change'>;

/**
 * Reads a snapshot file into `visitor`. Our own layout is streamed row by row (no giant
 * string, each row checked and let go at once); anything else, e.g. a file reformatted by
 * hand or written by lowdb itself, is read whole by lowdb's JSONFile. Resolves with the file's size, or null when there is no file;
 * throws when it is not JSON.
 */
export async function loadSnapshotFile(path: string, visitor: SnapshotVisitor): Promise<number | null> {
  let bytes: number;
  try {
    bytes = (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  await verifyChecksum(path);
  if (!(await streamRows(path, visitor))) {
    visitor.reset();
    visitor.document(await new JSONFile<unknown>(path).read());
  }
  return bytes;
}

const MEMBER = /^ {2}("(?:[^"\\]|\\.)*"): (.*?),?$/;
const ROW_INDENT = '    ';

/** Streams the one-row-per-line layout; false as soon as a line does not fit it. */
async function streamRows(path: string, visitor: SnapshotVisitor): Promise<boolean> {
  let state: 'start' | 'members' | 'rows' | 'end' | 'other' = 'start';
  let table = '';
  let cut = false;
  /** One line (without its newline); false when it does not fit. */
  const visit = (text: string, from: number, to: number): boolean => {
    if (state === 'rows') {
      if (text.startsWith(ROW_INDENT, from) && to - from > 4) {
        const end = text.charCodeAt(to - 1) === 44 /* , */ ? to - 1 : to;
        visitor.row(table, JSON.parse(text.slice(from + 4, end)));
        return true;
      }
      const line = text.slice(from, to);
      if (line !== '  ]' && line !== '  ],') return false;
      state = 'members';
      return true;
    }
    const line = text.slice(from, to);
    if (state === 'start') {
      if (line !== '{') return false;
      state = 'members';
    } else if (state === 'members') {
      if (line === '}') {
        state = 'end';
        return true;
      }
      const member = MEMBER.exec(line);
      if (!member?.[1] || member[2] === undefined) return false;
      const key = JSON.parse(member[1]) as string;
      if (member[2] === '[') {
        table = key;
        visitor.member(key, []);
        state = 'rows';
      } else {
        visitor.member(key, JSON.parse(member[2]));
      }
    } else if (line.trim() !== '') {
      return false;
    }
    return true;
  };
  try {
    await readTextChunks(path, (text) => {
      let from = 0;
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
        if (!visit(text, from, nl)) {
          state = 'other';
          return false;
        }
        from = nl + 1;
      }
      // Text after the last newline: the file does not end with one.
      if (from < text.length) cut = !(state === 'end' && text.slice(from).trim() === '');
      return true;
    });
  } catch (error) {
    if (error instanceof SyntaxError) return false;
    throw error;
  }
  const finished = (): boolean => state === 'end' && !cut;
  return finished();
}

const CHUNK_CHARS = 128 * 1024;

/** The last member of a snapshot written by the sandbox: the CRC-32 of every byte before its line. */
const CHECKSUM_TAIL = /,\n {2}"checksum": "crc32:([0-9a-f]{8})"\s*\}\s*$/;
const TAIL_BYTES = 64;

/**
 * Checks a snapshot's checksum member, if it has one (files written by older versions, by
 * lowdb or by hand have none and are read unchecked). Throws when the bytes do not match:
 * a flipped bit in a row, an id or the generation is refused, never loaded as data.
 */
async function verifyChecksum(path: string): Promise<void> {
  let crc = 0;
  let held = Buffer.alloc(0);
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    const joined = Buffer.concat([held, chunk as Buffer]);
    const keep = Math.min(joined.length, TAIL_BYTES);
    crc = crc32(joined.subarray(0, joined.length - keep), crc);
    held = joined.subarray(joined.length - keep);
  }
  const tail = held.toString('latin1');
  const match = CHECKSUM_TAIL.exec(tail);
  if (!match) {
    if (tail.includes('"checksum"') || tail.includes('crc32:')) {
      throw new Error(`the "checksum" line at the end of ${basename(path)} is damaged, so its content cannot be trusted. Nothing was loaded or changed; restore ${basename(path)} from a copy`);
    }
    return;
  }
  crc = crc32(held.subarray(0, match.index + 2), crc);
  const stored = match[1] ?? '';
  const actual = crc.toString(16).padStart(8, '0');
  if (stored !== actual) {
    throw new Error(
      `${basename(path)} does not match its checksum (stored crc32:${stored}, the bytes give crc32:${actual}): it changed after the sandbox wrote it (a damaged disk, a partial copy, or an edit by hand). ` +
        `Nothing was loaded or changed. Restore it from a copy; if you edited it on purpose, delete its "checksum" line`,
    );
  }
}

export interface WriteSnapshotOptions {
  /** fsync the file before the rename and the folder after it. */
  fsync: boolean;
}

/**
 * Writes `data` (a plain object whose values are arrays of rows or JSON values) to `path`
 * atomically: a temp file beside it, written in chunks (the event loop keeps running
 * between them), then renamed over `path`. Returns the number of bytes written.
 */
export async function writeSnapshotFile(path: string, data: Readonly<Record<string, unknown>>, options: WriteSnapshotOptions): Promise<number> {
  const temp = join(dirname(path), `.${basename(path)}.tmp`);
  const handle = await open(temp, 'w');
  let bytes = 0;
  let crc = 0;
  let buffer = '{\n';
  const flush = async () => {
    const chunk = Buffer.from(buffer);
    crc = crc32(chunk, crc);
    bytes += (await handle.write(chunk)).bytesWritten;
    buffer = '';
  };
  try {
    const entries = Object.entries(data);
    for (const [key, value] of entries) {
      buffer += `  ${JSON.stringify(key)}: `;
      if (Array.isArray(value) && value.length > 0) {
        buffer += '[\n';
        for (let i = 0; i < value.length; i++) {
          buffer += `    ${JSON.stringify(value[i])}${i < value.length - 1 ? ',' : ''}\n`;
          if (buffer.length >= CHUNK_CHARS) await flush();
        }
        buffer += '  ]';
      } else {
        buffer += JSON.stringify(value);
      }
      buffer += ',\n';
    }
    await flush();
    // The checksum covers every byte before its own line.
    buffer = `  "checksum": "crc32:${crc.toString(16).padStart(8, '0')}"\n}\n`;
    bytes += (await handle.write(buffer)).bytesWritten;
    if (options.fsync) await handle.sync();
    await handle.close();
    await rename(temp, path);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  if (options.fsync) await syncFolder(dirname(path));
  return bytes;
}

/** Makes a rename in `folder` durable (a no-op where folders cannot be opened, e.g. Windows). */
export async function syncFolder(folder: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(folder, 'r');
    await handle.sync();
  } catch {
    // Not supported on this platform: the rename is still atomic, only its durability is the OS's.
  } finally {
    await handle?.close();
  }
}
