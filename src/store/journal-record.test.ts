import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeRecord, encodeRecord } from './journal-record.js';
import type { Change } from './table.js';

const changes: Change[] = [{ op: 'put', table: 'trades', record: { id: 't1', note: 'Иван Петров, 100 ₽' } as never }, { op: 'delete', table: 'jobs', id: 'j1' }, { op: 'clear' }];

const line = (text: string) => Buffer.from(text.replace(/\n$/, ''));

describe('journal records', () => {
  it('are one JSON line each, which decodes back to the same changes', () => {
    const text = encodeRecord(changes).toString();
    expect(text.endsWith('\n')).toBe(true);
    expect(text.indexOf('\n')).toBe(text.length - 1);
    expect(JSON.parse(text)).toEqual({ len: expect.any(Number), crc: expect.stringMatching(/^[0-9a-f]{8}$/), changes });
    expect(decodeRecord(line(text))).toEqual({ ok: true, changes });
  });

  it('carry the byte length and CRC-32 of the changes JSON exactly as written (multi-byte text included)', () => {
    const payload = Buffer.from(JSON.stringify(changes));
    const crc = crc32(payload).toString(16).padStart(8, '0');
    expect(encodeRecord(changes).equals(Buffer.from(`{"len":${payload.length},"crc":"${crc}","changes":${payload.toString()}}\n`))).toBe(true);
  });

  it('a record cut short anywhere is refused', () => {
    const bytes = line(encodeRecord(changes).toString());
    for (const length of [0, 1, 10, 30, bytes.length - 40, bytes.length - 1]) {
      expect(decodeRecord(bytes.subarray(0, length)).ok, `cut at ${length}`).toBe(false);
    }
  });

  it('a changed byte fails the checksum', () => {
    const bytes = Buffer.from(line(encodeRecord(changes).toString()));
    const at = bytes.indexOf('j1');
    bytes[at + 1] = '2'.charCodeAt(0);
    expect(decodeRecord(bytes)).toEqual({ ok: false, reason: 'checksum mismatch' });
  });

  it('a wrong length is refused before the checksum is computed', () => {
    const text = line(encodeRecord(changes).toString())
      .toString()
      .replace(/^\{"len":(\d+)/, (_all, n: string) => `{"len":${Number(n) + 1}`);
    expect(decodeRecord(Buffer.from(text))).toMatchObject({ ok: false, reason: expect.stringContaining('length') });
  });

  it('a line that is not a record, or whose checked payload is not a list of changes, is refused', () => {
    expect(decodeRecord(Buffer.from('{"hello":"world"}')).ok).toBe(false);
    expect(decodeRecord(Buffer.alloc(64)).ok).toBe(false);
    const notChanges = encodeRecord([{ op: 'put', table: 'trades', record: { no: 'id' } } as never]).toString();
    expect(decodeRecord(line(notChanges))).toEqual({ ok: false, reason: 'not a list of store changes' });
  });
});
