import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../test/temp-folder.js';
import { sampleTrade } from '../../test/sample-trade.js';
import { JournalAdapter } from './journal-adapter.js';
import { encodeRecord } from './journal-record.js';
import { Store } from './store.js';

const trade = sampleTrade;

async function open(dir: string): Promise<{ store: Store; notes: string[] }> {
  const notes: string[] = [];
  const store = await Store.open(new JournalAdapter(dir, { warn: (note) => notes.push(note) }));
  return { store, notes };
}

const ids = (store: Store) => [...store.trades.values()].map((t) => t.id).sort();
const files = (dir: string) => readdirSync(dir).sort();
const journal = (dir: string, generation: number) => join(dir, `journal.${generation}.ndjson`);

/** Fills `dir`: its db.json holds trades 1-2 (generation 1) and its journal.1 trades 3-4, one record each. */
async function populated(dir: string): Promise<string> {
  const { store } = await open(dir);
  store.trades.put(trade(1));
  store.trades.put(trade(2));
  await store.close();
  const { store: again } = await open(dir);
  for (const n of [3, 4]) {
    again.trades.put(trade(n));
    await again.commit();
  }
  return dir;
}

describe('journal damage is kept, never cut off', () => {
  it('a journal overwritten with garbage is kept byte for byte, and the warning says it is mostly garbage (defect 11)', async ({ folder }) => {
    const dir = await populated(folder);
    const garbage = Buffer.from(Array.from({ length: 100 }, (_, i) => `garbage line ${i} ${'x'.repeat(i)}\n`).join(''));
    writeFileSync(journal(dir, 1), garbage);
    const { store, notes } = await open(dir);
    expect(ids(store)).toEqual([trade(1).id, trade(2).id]);
    expect(notes).toEqual([expect.stringMatching(/journal\.1\.ndjson: skipped 100 damaged records .*mostly not journal records.*left byte for byte/)]);
    store.trades.put(trade(5));
    await store.commit();
    expect(readFileSync(journal(dir, 1))).toEqual(garbage);
    await store.close();
    expect(readFileSync(join(dir, 'journal.1.damaged.ndjson'))).toEqual(garbage);
    expect(ids((await open(dir)).store)).toEqual([1, 2, 5].map((n) => trade(n).id));
  });

  it('a journal whose last 4 KiB were zeroed keeps the file; the records before the damage load (defect 11)', async ({ folder: dir }) => {
    const records = Array.from({ length: 20 }, (_, i) => encodeRecord([{ op: 'put', table: 'trades', record: trade(i + 1) }]));
    const whole = Buffer.concat(records);
    whole.fill(0, whole.length - 4096);
    writeFileSync(journal(dir, 0), whole);
    const { store, notes } = await open(dir);
    expect(store.trades.size).toBeGreaterThan(0);
    expect(store.trades.size).toBeLessThan(20);
    expect(notes).toEqual([expect.stringMatching(/journal\.0\.ndjson: skipped 1 damaged record .*do not start a record/)]);
    store.trades.put(trade(99));
    await store.commit();
    expect(readFileSync(journal(dir, 0))).toEqual(whole);
    expect(files(dir)).toEqual(['journal.0.ndjson', 'journal.1.ndjson']);
  });
});

describe('db.json: checksum and generation', () => {
  it('a db.json whose generation is ahead of the journals stops start-up and deletes nothing (defect 9)', async ({ folder }) => {
    const dir = await populated(folder);
    const snapshot = join(dir, 'db.json');
    // The checksum would catch a flipped digit; a db.json restored from another copy has a valid one.
    const original = readFileSync(snapshot, 'utf8');
    writeFileSync(snapshot, original.replace('"generation": 1,', '"generation": 3,').replace(/,\n {2}"checksum": .*\n/, '\n'));
    const before = files(dir).map((name) => [name, readFileSync(join(dir, name))]);
    await expect(open(dir)).rejects.toThrow(/db\.json says generation 3 but the newest journal is journal\.1\.ndjson .*Nothing was loaded, changed or deleted/);
    expect(files(dir).map((name) => [name, readFileSync(join(dir, name))])).toEqual(before);
  });

  it('a db.json older than the journals stops start-up naming both files', async ({ folder }) => {
    const dir = await populated(folder);
    const snapshot = join(dir, 'db.json');
    writeFileSync(
      snapshot,
      readFileSync(snapshot, 'utf8')
        .replace('"generation": 1,', '"generation": 0,')
        .replace(/,\n {2}"checksum": .*\n/, '\n'),
    );
    await expect(open(dir)).rejects.toThrow(/db\.json is generation 0 but the next journal is journal\.1\.ndjson/);
    expect(existsSync(journal(dir, 1))).toBe(true);
  });

  it('every single-bit flip in db.json is refused or loads the same data (defect 10)', async ({ folder }) => {
    const dir = await populated(folder);
    const snapshot = join(dir, 'db.json');
    const bytes = readFileSync(snapshot);
    const expected = [...(await open(dir)).store.trades.values()];
    let refused = 0;
    // 150 flips spread over the whole file, each bit position in turn.
    for (let i = 0; i < 150; i++) {
      const flipped = Buffer.from(bytes);
      const at = Math.floor((i * bytes.length) / 150);
      flipped[at] = (flipped[at] ?? 0) ^ (1 << (i % 8));
      writeFileSync(snapshot, flipped);
      try {
        const { store } = await open(dir);
        expect([...store.trades.values()]).toEqual(expected);
      } catch (error) {
        expect((error as Error).message).toMatch(/checksum|cannot be loaded|not a deposit-sandbox store/);
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(140);
    writeFileSync(snapshot, bytes);
    expect(ids((await open(dir)).store)).toEqual([1, 2, 3, 4].map((n) => trade(n).id));
  });
});
