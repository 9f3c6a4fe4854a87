import { closeSync, createReadStream, fsyncSync, openSync } from 'node:fs';
import { type FileHandle, open, readFile, rename, rm } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { basename, dirname, join } from 'node:path';
import type { StoreSink } from './adapter.js';
import { readLines } from './read-lines.js';

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
 * Any JSON reader (lowdb's JSONFile, jq, an editor) reads it, and a `db.json` such a tool wrote
 * (one document, any layout) is read whole. Written to a temp file that
 * is renamed over the old one, so a crash leaves either the old file or the new one.
 */

/** Receives a snapshot file's content: streamed members and rows, or the whole document. */
export type SnapshotVisitor = Omit<StoreSink, 'change'>;

/**
 * A file up to this size is read with one read into one buffer: its checksum is checked and
 * its rows parsed from that buffer. A larger one is read twice in 1 MiB chunks (the checksum,
 * then the rows), so memory stays bounded however large the store grows.
 */
export const WHOLE_FILE_BYTES = 8 * 1024 * 1024;

/** Bytes of rows parsed between two turns of the event loop (requests are answered meanwhile). */
const SLICE_BYTES = 1 << 20;

/**
 * Reads a snapshot file into `visitor`. Our own layout is streamed row by row: each row line is
 * decoded and parsed on its own, checked and let go at once (no string of the whole file: a
 * string that large costs far more to decode than its lines do). Anything else, e.g. a
 * file reformatted by hand or written by lowdb itself, is parsed whole with JSON.parse. The
 * checksum is verified before anything reaches the visitor. Resolves with the file's size, or
 * null when there is no file; throws when it is not JSON. `wholeFileBytes`: the largest file
 * read with one read (see WHOLE_FILE_BYTES).
 */
export async function loadSnapshotFile(path: string, visitor: SnapshotVisitor, wholeFileBytes = WHOLE_FILE_BYTES): Promise<number | null> {
  const file = await readSmallFile(path, wholeFileBytes);
  if (file === null) return null;
  const reader = new LayoutReader(visitor);
  let fits = true;
  try {
    if (file.content !== undefined) {
      const content = file.content;
      const tail = Math.max(0, content.length - TAIL_BYTES);
      checkTail(path, content.subarray(tail), crc32(content.subarray(0, tail)));
      await visitLines(content, (from, to, complete) => reader.line(content, from, to, complete));
    } else {
      await verifyChecksum(path);
      await readLines(path, (bytes, _offset, complete) => reader.line(bytes, 0, bytes.length, complete));
    }
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    fits = false;
  }
  if (!fits || !reader.finished) {
    visitor.reset();
    visitor.document(JSON.parse(await readFile(path, 'utf8')));
  }
  return file.bytes;
}

/** The file's size, and its bytes when it has at most `limit` of them (one read); null when there is no file. */
async function readSmallFile(path: string, limit: number): Promise<{ bytes: number; content?: Buffer } | null> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const bytes = (await handle.stat()).size;
    if (bytes > limit) return { bytes };
    // One byte more than the size: a file that grew since stat() is read the chunked way.
    const buffer = Buffer.allocUnsafe(bytes + 1);
    let read = 0;
    for (let got = -1; got !== 0 && read < buffer.length; read += got) got = (await handle.read(buffer, read, buffer.length - read, read)).bytesRead;
    return read > bytes ? { bytes: read } : { bytes: read, content: buffer.subarray(0, read) };
  } finally {
    await handle.close();
  }
}

/**
 * Calls `visit` with each line of `content` (from, to: without its newline; complete: false for
 * a last line with none) until it returns false, letting the event loop turn between slices.
 */
async function visitLines(content: Buffer, visit: (from: number, to: number, complete: boolean) => boolean): Promise<void> {
  let from = 0;
  let pause = SLICE_BYTES;
  for (let nl = content.indexOf(10); nl !== -1; nl = content.indexOf(10, from)) {
    if (!visit(from, nl, true)) return;
    from = nl + 1;
    if (from >= pause) {
      pause = from + SLICE_BYTES;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  if (from < content.length) visit(from, content.length, false);
}

const MEMBER = /^ {2}("(?:[^"\\]|\\.)*"): (.*?),?$/;
const SPACE = 32;
const COMMA = 44;

/** The one-row-per-line layout, fed one line at a time; a line returns false as soon as it does not fit. */
class LayoutReader {
  readonly #visitor: SnapshotVisitor;
  #state: 'start' | 'members' | 'rows' | 'end' | 'other' = 'start';
  #table = '';
  #cut = false;

  constructor(visitor: SnapshotVisitor) {
    this.#visitor = visitor;
  }

  /** True once the closing brace was read, with nothing but blank space after it. */
  get finished(): boolean {
    return this.#state === 'end' && !this.#cut;
  }

  /** Bytes [from, to) of `bytes`: one line without its newline (`complete` false: the last line, with none). */
  line(bytes: Buffer, from: number, to: number, complete: boolean): boolean {
    if (!complete) {
      // Text after the last newline: the file does not end with one.
      this.#cut = !(this.#state === 'end' && bytes.toString('utf8', from, to).trim() === '');
      return true;
    }
    if (this.#state === 'rows') {
      // A row: four spaces, the row's JSON, a comma unless it is the table's last.
      if (to - from > 4 && bytes[from] === SPACE && bytes[from + 1] === SPACE && bytes[from + 2] === SPACE && bytes[from + 3] === SPACE) {
        const end = bytes[to - 1] === COMMA ? to - 1 : to;
        this.#visitor.row(this.#table, JSON.parse(bytes.toString('utf8', from + 4, end)));
        return true;
      }
      const line = bytes.toString('utf8', from, to);
      if (line !== '  ]' && line !== '  ],') return this.#other();
      this.#state = 'members';
      return true;
    }
    const line = bytes.toString('utf8', from, to);
    if (this.#state === 'start') {
      if (line !== '{') return this.#other();
      this.#state = 'members';
    } else if (this.#state === 'members') {
      if (line === '}') {
        this.#state = 'end';
        return true;
      }
      const member = MEMBER.exec(line);
      if (!member?.[1] || member[2] === undefined) return this.#other();
      const key = JSON.parse(member[1]) as string;
      if (member[2] === '[') {
        this.#table = key;
        this.#visitor.member(key, []);
        this.#state = 'rows';
      } else {
        this.#visitor.member(key, JSON.parse(member[2]));
      }
    } else if (line.trim() !== '') {
      return this.#other();
    }
    return true;
  }

  #other(): false {
    this.#state = 'other';
    return false;
  }
}

/** The last member of a snapshot written by the sandbox: the CRC-32 of every byte before its line. */
const CHECKSUM_TAIL = /,\n {2}"checksum": "crc32:([0-9a-f]{8})"\s*\}\s*$/;
const TAIL_BYTES = 64;

/** Checks a large snapshot's checksum member (see checkTail), reading it in chunks. */
async function verifyChecksum(path: string): Promise<void> {
  let crc = 0;
  let held = Buffer.alloc(0);
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    const joined = Buffer.concat([held, chunk as Buffer]);
    const keep = Math.min(joined.length, TAIL_BYTES);
    crc = crc32(joined.subarray(0, joined.length - keep), crc);
    held = joined.subarray(joined.length - keep);
  }
  checkTail(path, held, crc);
}

/**
 * Checks a snapshot's checksum member, if it has one (files written by older versions, by
 * lowdb or by hand have none and are read unchecked), given the file's last TAIL_BYTES bytes
 * (`tail`) and the CRC-32 of every byte before them (`crc`). Throws when the bytes do not
 * match: a flipped bit in a row, an id or the generation is refused, never loaded as data.
 */
function checkTail(path: string, tail: Buffer, crc: number): void {
  const text = tail.toString('latin1');
  const match = CHECKSUM_TAIL.exec(text);
  if (!match) {
    if (text.includes('"checksum"') || text.includes('crc32:')) {
      throw new Error(`the "checksum" line at the end of ${basename(path)} is damaged, so its content cannot be trusted. Nothing was loaded or changed; restore ${basename(path)} from a copy`);
    }
    return;
  }
  const stored = match[1] ?? '';
  const sum = crc32(tail.subarray(0, match.index + 2), crc);
  const actual = sum.toString(16).padStart(8, '0');
  if (stored !== actual) {
    throw new Error(
      `${basename(path)} does not match its checksum (stored crc32:${stored}, the bytes give crc32:${actual}): it changed after the sandbox wrote it (a damaged disk, a partial copy, or an edit by hand). ` +
        `Nothing was loaded or changed. Restore it from a copy; if you edited it on purpose, delete its "checksum" line`,
    );
  }
}

const CHUNK_CHARS = 128 * 1024;

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

/** Makes a file's creation in `folder` durable, synchronously (where folders can be opened; not on Windows). */
export function syncFolderSync(folder: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(folder, 'r');
    fsyncSync(fd);
  } catch {
    // Not supported here: the file exists; only its durability across a power cut is the OS's.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
