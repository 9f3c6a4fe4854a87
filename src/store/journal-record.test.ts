import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyCodePoint } from '../../test/fuzz-requests.js';
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

  it('decode back to the same changes whatever their strings hold (quotes, backslashes, brackets, newlines, any code point, lone surrogates)', () => {
    // Any code point comes from the fuzz suite's `anyCodePoint`: fast-check's own `unit: 'binary'`
    // costs seconds and a map of every code point that the test worker's garbage collector walks from then on.
    const tricky = fc.oneof(fc.string({ unit: fc.constantFrom('"', '\\', '[', ']', '{', '}', ',', ':', '\n', '\u0000', '\ud800', 'я', '₽') }), fc.string({ unit: anyCodePoint }));
    const value = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        tricky,
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(tricky, tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    const change: fc.Arbitrary<Change> = fc.oneof(
      fc.record({ op: fc.constant('put' as const), table: fc.constant('trades' as const), record: fc.record({ id: tricky, note: value }) as fc.Arbitrary<never> }),
      fc.record({ op: fc.constant('delete' as const), table: fc.constant('jobs' as const), id: tricky }),
      fc.constant({ op: 'clear' as const }),
    );
    fc.assert(
      fc.property(fc.array(change, { maxLength: 6 }), (commit) => {
        const text = encodeRecord(commit);
        expect(text.indexOf(0x0a)).toBe(text.length - 1);
        expect(decodeRecord(text.subarray(0, text.length - 1))).toEqual({ ok: true, changes: JSON.parse(JSON.stringify(commit)) });
      }),
      { numRuns: 1000, seed: 20261128 },
    );
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
