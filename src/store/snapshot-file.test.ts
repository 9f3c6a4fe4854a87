import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../test/temp-folder.js';
import { sampleTrade } from '../../test/sample-trade.js';
import { loadSnapshotFile, type SnapshotVisitor, WHOLE_FILE_BYTES, writeSnapshotFile } from './snapshot-file.js';

/** Where a test's snapshot file goes. */
function tempFile(folder: string): string {
  return join(folder, 'db.json');
}

/** Records what a visitor is given, in order. */
function recorder() {
  const seen: unknown[] = [];
  const visitor: SnapshotVisitor = {
    member: (name, value) => void seen.push(['member', name, value]),
    row: (table, row) => void seen.push(['row', table, row]),
    document: (value) => void seen.push(['document', value]),
    reset: () => void seen.splice(0).length,
  };
  return { seen, visitor };
}

// Names in Cyrillic, an emoji (two UTF-16 units) and a quote: what a line decoder must get right.
const rows = [sampleTrade(1, { requisites: { name: 'Иван П.', number: '+79111109143', bank_name: 'Сбербанк' } }), sampleTrade(2, { order: 'order-"2"-🧾' }), sampleTrade(3)];
const data = { version: 1, generation: 4, trades: rows, jobs: [], callbacks: [], meta: [{ id: 'clock', offset: 1500 }] };
const expected = [
  ['member', 'version', 1],
  ['member', 'generation', 4],
  ['member', 'trades', []],
  ...rows.map((row) => ['row', 'trades', row]),
  ['member', 'jobs', []],
  ['member', 'callbacks', []],
  ['member', 'meta', []],
  ['row', 'meta', { id: 'clock', offset: 1500 }],
  ['member', 'checksum', expect.stringMatching(/^crc32:[0-9a-f]{8}$/)],
];

// Both ways of reading: a file read with one read (the usual size), and one read in chunks (larger than the limit).
describe.each([
  ['read whole', WHOLE_FILE_BYTES],
  ['read in chunks', 0],
])('loadSnapshotFile (%s)', (_how, wholeFileBytes) => {
  it('gives every member and row as written, in order, and the file size', async ({ folder }) => {
    const path = tempFile(folder);
    const bytes = await writeSnapshotFile(path, data, { fsync: false });
    const { seen, visitor } = recorder();
    expect(await loadSnapshotFile(path, visitor, wholeFileBytes)).toBe(bytes);
    expect(seen).toEqual(expected);
  });

  it('resolves null, visiting nothing, when there is no file', async ({ folder }) => {
    const { seen, visitor } = recorder();
    expect(await loadSnapshotFile(tempFile(folder), visitor, wholeFileBytes)).toBeNull();
    expect(seen).toEqual([]);
  });

  it('refuses a file whose bytes no longer match its checksum before giving the visitor anything', async ({ folder }) => {
    const path = tempFile(folder);
    await writeSnapshotFile(path, data, { fsync: false });
    writeFileSync(path, readFileSync(path, 'utf8').replace('"amount_cents":1003', '"amount_cents":9003'));
    const { seen, visitor } = recorder();
    await expect(loadSnapshotFile(path, visitor, wholeFileBytes)).rejects.toThrow(
      /db\.json does not match its checksum \(stored crc32:[0-9a-f]{8}, the bytes give crc32:[0-9a-f]{8}\).*Nothing was loaded or changed/,
    );
    expect(seen).toEqual([]);
  });

  it('refuses a file whose checksum line is damaged', async ({ folder }) => {
    const path = tempFile(folder);
    await writeSnapshotFile(path, data, { fsync: false });
    writeFileSync(path, readFileSync(path, 'utf8').replace(/"crc32:([0-9a-f]{8})"/, '"crc32:zz"'));
    await expect(loadSnapshotFile(path, recorder().visitor, wholeFileBytes)).rejects.toThrow(/the "checksum" line at the end of db\.json is damaged/);
  });

  it('reads a file in another layout (reformatted by hand) whole, after a reset', async ({ folder }) => {
    const path = tempFile(folder);
    writeFileSync(path, JSON.stringify({ trades: rows, version: 1 }));
    const { seen, visitor } = recorder();
    await loadSnapshotFile(path, visitor, wholeFileBytes);
    expect(seen).toEqual([['document', { trades: rows, version: 1 }]]);
  });

  it('reads again whole a file that stops fitting the layout half-way (a row split over two lines)', async ({ folder }) => {
    const path = tempFile(folder);
    await writeSnapshotFile(path, { version: 1, trades: rows }, { fsync: false });
    const text = readFileSync(path, 'utf8').replace(/,\n {2}"checksum".*\n\}\n$/, '\n}\n');
    writeFileSync(path, text.replace('"state":"created",', '"state":"created",\n'));
    const { seen, visitor } = recorder();
    await loadSnapshotFile(path, visitor, wholeFileBytes);
    expect(seen).toEqual([['document', { version: 1, trades: rows }]]);
  });

  it('throws on a file cut short (not JSON)', async ({ folder }) => {
    const path = tempFile(folder);
    await writeSnapshotFile(path, { version: 1, trades: rows }, { fsync: false });
    writeFileSync(path, readFileSync(path, 'utf8').slice(0, 400));
    await expect(loadSnapshotFile(path, recorder().visitor, wholeFileBytes)).rejects.toThrow();
  });
});

describe('loadSnapshotFile on a large file', () => {
  it('lets the event loop turn while it parses (a callback queued at the first row runs before the last)', async ({ folder }) => {
    const path = tempFile(folder);
    const many = Array.from({ length: 6000 }, (_, i) => sampleTrade(i + 1));
    await writeSnapshotFile(path, { version: 1, trades: many }, { fsync: false });
    let visited = 0;
    let seenByCallback: number | undefined;
    const row = () => {
      if (visited++ === 0) setImmediate(() => (seenByCallback = visited));
    };
    await loadSnapshotFile(path, { member: () => undefined, row, document: () => undefined, reset: () => undefined });
    expect(visited).toBe(6000);
    expect(seenByCallback).toBeGreaterThan(0);
    expect(seenByCallback).toBeLessThan(6000);
  });
});
