import { crc32 } from 'node:zlib';
import type { Change } from './table.js';

const CLOSE = 0x7d; // }

/**
 * One journal line: the changes of one group commit, framed so a line that was cut short
 * or altered is recognised and never applied:
 *
 *   {"len":123,"crc":"0a1b2c3d","changes":[...]}\n
 *
 * `len` is the byte length and `crc` the CRC-32 (hex) of the `changes` JSON exactly as
 * written. Every line is also plain JSON, so `jq` reads a journal as it is.
 */
export function encodeRecord(changes: readonly unknown[]): Buffer {
  const json = JSON.stringify(changes);
  const length = Buffer.byteLength(json);
  // The header's length is known before the CRC (always 8 hex digits), so the JSON is encoded
  // once, straight into the line, and the CRC is taken over it there.
  const before = `{"len":${length},"crc":"`;
  const after = '","changes":';
  const start = before.length + 8 + after.length;
  const line = Buffer.allocUnsafe(start + length + 2);
  line.write(before, 0, 'latin1');
  line.write(json, start, 'utf8');
  const sum = crc32(line.subarray(start, start + length))
    .toString(16)
    .padStart(8, '0');
  line.write(sum + after, before.length, 'latin1');
  line[line.length - 2] = CLOSE;
  line[line.length - 1] = 0x0a; // \n
  return line;
}

export type DecodedRecord = { ok: true; changes: Change[] } | { ok: false; reason: string };

const PREFIX = /^\{"len":(\d{1,12}),"crc":"([0-9a-f]{8})","changes":/;

/**
 * Whether `bytes`, the last line of a journal with no `\n` after it, is the start of a record
 * cut short (a torn write): it begins with a record's header and is shorter than the record
 * says it is. Anything else there is damage, not a write that stopped.
 */
export function isTornRecord(bytes: Buffer): boolean {
  if (bytes.length === 0) return true;
  const head = PREFIX.exec(bytes.toString('latin1', 0, Math.min(bytes.length, 48)));
  // No whole header yet: torn only while short enough to be a header cut short.
  if (!head) return bytes.length < 48 && PREFIX_START.startsWith(bytes.toString('latin1', 0, Math.min(bytes.length, PREFIX_START.length)));
  return bytes.length < head[0].length + Number(head[1]) + 1;
}

const PREFIX_START = '{"len":';

/** Checks and decodes one journal line (without its `\n`). */
export function decodeRecord(line: Buffer): DecodedRecord {
  const frame = decodeFrame(line);
  if (!frame.ok) return frame;
  const changes = frame.payload;
  if (!Array.isArray(changes) || !changes.every(isChange)) return { ok: false, reason: 'not a list of store changes' };
  return { ok: true, changes };
}

/**
 * Checks one journal line's frame (length, CRC) and parses what it holds: a list of store
 * changes (decodeRecord), or the entries of the workspaces' journal (workspaces-journal.ts).
 */
export function decodeFrame(line: Buffer): { ok: true; payload: unknown } | { ok: false; reason: string } {
  const head = PREFIX.exec(line.toString('latin1', 0, Math.min(line.length, 48)));
  if (!head) return { ok: false, reason: 'not a journal record' };
  const start = head[0].length;
  const length = Number(head[1]);
  const end = start + length;
  if (line.length !== end + 1 || line[end] !== CLOSE) {
    return { ok: false, reason: `length ${line.length - start - 1} where the record says ${length}` };
  }
  const payload = line.subarray(start, end);
  if (crc32(payload) !== Number.parseInt(head[2] ?? '', 16)) return { ok: false, reason: 'checksum mismatch' };
  try {
    return { ok: true, payload: JSON.parse(payload.toString('utf8')) };
  } catch {
    return { ok: false, reason: 'checksum matches but the JSON does not parse' };
  }
}

export function isChange(value: unknown): value is Change {
  if (typeof value !== 'object' || value === null) return false;
  const change = value as Record<string, unknown>;
  switch (change['op']) {
    case 'clear':
      return true;
    case 'delete':
      return typeof change['table'] === 'string' && typeof change['id'] === 'string';
    case 'put': {
      const record = change['record'];
      return typeof change['table'] === 'string' && typeof record === 'object' && record !== null && !Array.isArray(record) && typeof (record as Record<string, unknown>)['id'] === 'string';
    }
    default:
      return false;
  }
}
