import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSONFile } from 'lowdb/node';
import { describe, expect } from 'vitest';
import { sampleTrade } from '../../test/sample-trade.js';
import { folderIn, it } from '../../test/temp-folder.js';
import type { TradeRecord } from '../trades/trade.js';
import { JournalAdapter, type JournalAdapterOptions } from './journal-adapter.js';
import { encodeRecord } from './journal-record.js';
import { openJournals } from './open-journals.js';
import { DataFolderRefusedError, Store } from './store.js';

const trade = sampleTrade;

interface Opened {
  store: Store;
  notes: string[];
}

async function open(dir: string, options: JournalAdapterOptions = {}): Promise<Opened> {
  const notes: string[] = [];
  const store = await Store.open(new JournalAdapter(dir, { warn: (note) => notes.push(note), ...options }));
  return { store, notes };
}

const files = (dir: string) => readdirSync(dir).sort();
/** Where a descriptor of /proc/self/fd points, or '' when it closed meanwhile (the one readdir used). */
const readlinkOr = (path: string) => {
  try {
    return readlinkSync(path);
  } catch {
    return '';
  }
};
const trades = (store: Store) => [...store.trades.values()];
const journal = (dir: string, generation: number) => join(dir, `journal.${generation}.ndjson`);
const snapshotFile = (generation: number, rows: TradeRecord[]) => `${JSON.stringify({ version: 1, generation, trades: rows, jobs: [], callbacks: [], meta: [] }, null, 2)}\n`;

describe('JournalAdapter: writes and restarts', () => {
  it('every committed change is there after a restart, without a shutdown', async ({ folder: dir }) => {
    const { store } = await open(dir);
    store.trades.put(trade(1));
    store.trades.put(trade(2));
    store.jobs.put({ id: 'job-1', due: 5, seq: 1, kind: 'transition', trade: trade(1).id, data: { state: 'confirmed' } });
    store.meta.put({ id: 'clock', offset: 1500 });
    await store.commit();
    store.trades.put(trade(2, { state: 'confirmed' }));
    store.jobs.delete('job-1');
    await store.commit();
    // No close(): as after kill -9.

    const { store: again, notes } = await open(dir);
    expect(trades(again)).toEqual([trade(1), trade(2, { state: 'confirmed' })]);
    expect([...again.jobs.values()]).toEqual([]);
    expect(again.meta.get('clock')).toEqual({ id: 'clock', offset: 1500 });
    expect(again.trades.findUnique('6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51', 'order-2')?.id).toBe(trade(2).id);
    expect(notes).toEqual([]);
  });

  it('a group commit is one journal line', async ({ folder: dir }) => {
    const { store } = await open(dir);
    for (let n = 0; n < 10; n++) store.trades.put(trade(n));
    await Promise.all([store.commit(), store.commit()]);
    const lines = readFileSync(journal(dir, 0), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect((JSON.parse(lines[0]!) as { changes: unknown[] }).changes).toHaveLength(10);
  });

  it('close() compacts the journal into db.json, which lowdb reads as the store snapshot', async ({ folder: dir }) => {
    const { store } = await open(dir);
    store.trades.put(trade(1));
    store.trades.put(trade(2));
    await store.commit();
    await store.close();

    expect(files(dir)).toEqual(['db.json', 'journal.1.ndjson']);
    expect(readFileSync(journal(dir, 1), 'utf8')).toBe('');
    const data = await new JSONFile<Record<string, unknown>>(join(dir, 'db.json')).read();
    expect(data).toEqual({ ...store.snapshot(), generation: 1, checksum: expect.stringMatching(/^crc32:[0-9a-f]{8}$/) });
    expect(readFileSync(join(dir, 'db.json'), 'utf8').split('\n').slice(0, 5)).toEqual(['{', '  "version": 1,', '  "generation": 1,', '  "trades": [', `    ${JSON.stringify(trade(1))},`]);

    const { store: again } = await open(dir);
    expect(trades(again)).toEqual([trade(1), trade(2)]);
  });

  it('restarts after compaction keep working: more writes, another crash, another restart', async ({ folder: dir }) => {
    const first = await open(dir);
    first.store.trades.put(trade(1));
    await first.store.close();
    const second = await open(dir);
    second.store.trades.put(trade(2));
    second.store.trades.delete(trade(1).id);
    await second.store.commit();
    const third = await open(dir);
    expect(trades(third.store)).toEqual([trade(2)]);
    await third.store.close();
    expect(files(dir)).toEqual(['db.json', 'journal.2.ndjson']);
    expect(trades((await open(dir)).store)).toEqual([trade(2)]);
  });

  it('compacts in the background once rows written again pass the threshold, while writes go on, losing none', async ({ folder: dir }) => {
    const { store } = await open(dir, { compactBytes: 2_000 });
    const generation = () => Number(/journal\.(\d+)/.exec(files(dir).find((name) => name.startsWith('journal.')) ?? '')?.[1]);
    // Writes go on while a compaction runs (a slow fsync under load lets many through): write until
    // it compacted more than once, with a bound, rather than a fixed count that assumes a fast disk.
    let n = 0;
    for (; n < 60 || (generation() < 3 && n < 2_000); n++) {
      store.trades.put(trade(n % 5, { amount_cents: 100 + n }));
      await store.commit();
    }
    await (store.adapter as JournalAdapter).settled();
    // Five live rows, the rest superseded copies: compacted more than once while writing.
    expect(generation()).toBeGreaterThanOrEqual(3);
    expect(files(dir)).toContain('db.json');
    await store.close();
    const last = n - 1;
    const expected = Array.from({ length: 5 }, (_, id) => {
      let k = last;
      while (k % 5 !== id) k--;
      return trade(id, { amount_cents: 100 + k });
    });
    expect(trades((await open(dir)).store)).toEqual(expected);
  });

  it('leaves a journal of new rows alone until it reaches four times the threshold', async ({ folder: dir }) => {
    const { store } = await open(dir, { compactBytes: 2_000 });
    let n = 0;
    const write = async (until: number) => {
      // Until the first journal holds `until` bytes, or is gone (compacted away).
      for (let size = 0; size < until; size = statSync(journal(dir, 0), { throwIfNoEntry: false })?.size ?? until) {
        store.trades.put(trade(n++));
        await store.commit();
      }
      await (store.adapter as JournalAdapter).settled();
    };
    await write(7_000);
    // Past the threshold (and the snapshot, none) but all rows are live: nothing was compacted.
    expect(files(dir)).toEqual(['journal.0.ndjson']);
    await write(8_000);
    // Four times the threshold now: the next write folds it in (a record's size is counted once it is written).
    expect(files(dir)).toEqual(['journal.0.ndjson']);
    store.trades.put(trade(n++));
    await store.commit();
    await (store.adapter as JournalAdapter).settled();
    expect(files(dir)).toEqual(['db.json', 'journal.1.ndjson']);
    await store.close();
    expect(trades((await open(dir)).store)).toEqual(Array.from({ length: n }, (_, k) => trade(k)));
  });

  it('clear() is persisted, compacted at once, and later writes stay', async ({ folder: dir }) => {
    const { store } = await open(dir);
    store.trades.put(trade(1));
    store.meta.put({ id: 'clock', offset: 7 });
    await store.commit();
    store.clear();
    store.trades.put(trade(2));
    await store.commit();
    await (store.adapter as JournalAdapter).settled();
    expect(files(dir)).toEqual(['db.json', 'journal.1.ndjson']);
    expect(JSON.parse(readFileSync(join(dir, 'db.json'), 'utf8'))).toMatchObject({ trades: [trade(2)], meta: [] });
    const { store: again } = await open(dir);
    expect(trades(again)).toEqual([trade(2)]);
    expect(again.meta.size).toBe(0);
  });

  it('with fsync on, writes and compactions behave the same', async ({ folder: dir }) => {
    const { store } = await open(dir, { fsync: true });
    store.trades.put(trade(1));
    await store.commit();
    store.trades.put(trade(2));
    await store.commit();
    const { store: again } = await open(dir);
    expect(trades(again)).toEqual([trade(1), trade(2)]);
    await store.close();
    expect(trades((await open(dir)).store)).toEqual([trade(1), trade(2)]);
  });

  it('read() gives the whole store as one snapshot document', async ({ folder: dir }) => {
    const { store } = await open(dir);
    store.trades.put(trade(1));
    await store.close();
    store.trades.put(trade(2));
    store.trades.put(trade(1, { state: 'canceled' }));
    await store.commit();
    expect(await new JournalAdapter(dir).read()).toMatchObject({ version: 1, trades: [trade(1, { state: 'canceled' }), trade(2)] });
    expect(await new JournalAdapter(folderIn(dir)).read()).toBeNull();
  });

  it('a db.json as lowdb writes it (pretty-printed, no generation, no journal) loads and moves on', async ({ folder: dir }) => {
    await new JSONFile(join(dir, 'db.json')).write({ version: 1, trades: [trade(1)], jobs: [], callbacks: [], meta: [] });
    const { store } = await open(dir);
    expect(trades(store)).toEqual([trade(1)]);
    store.trades.put(trade(2));
    await store.close();
    expect(trades((await open(dir)).store)).toEqual([trade(1), trade(2)]);
  });
});

describe('JournalAdapter: crashes and damage', () => {
  it('a torn last record (a write cut short) is dropped and cut off before the next write', async ({ folder: dir }) => {
    const { store } = await open(dir);
    store.trades.put(trade(1));
    await store.commit();
    const whole = readFileSync(journal(dir, 0)).length;
    appendFileSync(
      journal(dir, 0),
      encodeRecord([{ op: 'put', table: 'trades', record: trade(2) }])
        .toString()
        .slice(0, 90),
    );

    const second = await open(dir);
    expect(trades(second.store)).toEqual([trade(1)]);
    // It cannot tell a write cut short at a stop (nothing acknowledged lost) from a file cut short
    // (what followed is gone): it says both, and keeps the incomplete bytes aside.
    expect(second.notes).toEqual([
      expect.stringMatching(
        new RegExp(
          `^journal\\.0\\.ndjson: dropped an incomplete last record \\(90 bytes with no line end, from byte ${whole}\\); everything before it is loaded\\. ` +
            'Either a write was cut short as the sandbox stopped .*nothing acknowledged is lost\\), or the file itself was cut short .*whatever followed byte \\d+ is gone.*' +
            `Its bytes are copied to journal\\.0\\.torn-${whole}\\.ndjson, beside the journal, before the next change is written over them\\.$`,
        ),
      ),
    ]);
    second.store.trades.put(trade(3));
    await second.store.commit();
    expect(readFileSync(join(dir, `journal.0.torn-${whole}.ndjson`), 'utf8')).toBe(
      encodeRecord([{ op: 'put', table: 'trades', record: trade(2) }])
        .toString()
        .slice(0, 90),
    );
    expect(readFileSync(journal(dir, 0), 'utf8').slice(whole)).toBe(encodeRecord([{ op: 'put', table: 'trades', record: trade(3) }]).toString());

    const third = await open(dir);
    expect(trades(third.store)).toEqual([trade(1), trade(3)]);
    expect(third.notes).toEqual([]);
  });

  it('when the copy of a torn record cannot be written, the write fails without keeping the journal open; the next write cuts it off', async ({ folder: dir }) => {
    const { store } = await open(dir);
    store.trades.put(trade(1));
    await store.commit();
    const whole = readFileSync(journal(dir, 0)).length;
    const torn = encodeRecord([{ op: 'put', table: 'trades', record: trade(2) }]).subarray(0, 90);
    appendFileSync(journal(dir, 0), torn);
    // Where the torn bytes' copy goes stands a folder: the copy fails, as on a full disk.
    const copy = join(dir, `journal.0.torn-${whole}.ndjson`);
    mkdirSync(copy);
    const second = await open(dir);
    // The descriptors open on the journal (Linux: /proc; elsewhere the count is left out).
    const target = realpathSync(journal(dir, 0));
    const journalFds = () => (existsSync('/proc/self/fd') ? readdirSync('/proc/self/fd').filter((fd) => readlinkOr(join('/proc/self/fd', fd)) === target).length : 1);
    // The first sandbox's, still open (it never stopped).
    expect(journalFds()).toBe(1);
    for (let n = 3; n <= 5; n++) {
      second.store.trades.put(trade(n));
      await expect(second.store.commit()).rejects.toMatchObject({ name: 'WriteFailedError' });
    }
    expect(journalFds()).toBe(1);

    rmdirSync(copy);
    second.store.trades.put(trade(6));
    await second.store.commit();
    expect(readFileSync(copy)).toEqual(torn);
    expect(readFileSync(journal(dir, 0), 'utf8').slice(whole)).toBe(encodeRecord([{ op: 'put', table: 'trades', record: trade(6) }]).toString());
    await second.store.close();
    expect(trades((await open(dir)).store)).toEqual([trade(1), trade(6)]);
  });

  it('a complete last record with a checksum mismatch is damage, not a torn write: kept byte for byte, never cut off', async ({ folder: dir }) => {
    const { store } = await open(dir);
    store.trades.put(trade(1));
    await store.commit();
    appendFileSync(
      journal(dir, 0),
      encodeRecord([{ op: 'put', table: 'trades', record: trade(2) }])
        .toString()
        .replace('order-2', 'order-X'),
    );
    const bytes = readFileSync(journal(dir, 0));
    const again = await open(dir);
    expect(trades(again.store)).toEqual([trade(1)]);
    expect(again.notes).toEqual([expect.stringMatching(/skipped 1 damaged record .*checksum mismatch.*nothing is cut off/)]);
    again.store.trades.put(trade(3));
    await again.store.commit();
    expect(readFileSync(journal(dir, 0))).toEqual(bytes);
    expect(files(dir)).toEqual(['journal.0.ndjson', 'journal.1.ndjson']);
    await again.store.close();
    expect(readFileSync(join(dir, 'journal.0.damaged.ndjson'))).toEqual(bytes);
    expect(trades((await open(dir)).store)).toEqual([trade(1), trade(3)]);
  });

  it('a damaged record in the middle is skipped, the rest loads, and the file is kept aside on compaction', async ({ folder: dir }) => {
    const records = [1, 2, 3].map((n) => encodeRecord([{ op: 'put', table: 'trades', record: trade(n) }]).toString());
    writeFileSync(journal(dir, 0), records[0]! + records[1]!.replace('order-2', 'order-X') + records[2]!);
    const { store, notes } = await open(dir);
    expect(trades(store)).toEqual([trade(1), trade(3)]);
    expect(notes).toEqual([expect.stringMatching(/^journal\.0\.ndjson: skipped 1 damaged record \(first at byte \d+: checksum mismatch\); 2 valid records loaded\..*left byte for byte/)]);
    await store.close();
    expect(files(dir)).toEqual(['db.json', 'journal.0.damaged.ndjson', 'journal.1.ndjson']);
    const again = await open(dir);
    expect(trades(again.store)).toEqual([trade(1), trade(3)]);
    expect(again.notes).toEqual([]);
  });

  it('crash during compaction, before the new snapshot: old snapshot + both journals load in order', async ({ folder: dir }) => {
    writeFileSync(join(dir, 'db.json'), snapshotFile(4, [trade(1)]));
    writeFileSync(journal(dir, 4), encodeRecord([{ op: 'put', table: 'trades', record: trade(2) }]).toString());
    writeFileSync(
      journal(dir, 5),
      encodeRecord([
        { op: 'put', table: 'trades', record: trade(2, { state: 'confirmed' }) },
        { op: 'delete', table: 'trades', id: trade(1).id },
      ]).toString(),
    );
    writeFileSync(join(dir, '.db.json.tmp'), '{"version": 1, "generation": 5, "trades": [');
    const { store, notes } = await open(dir);
    expect(trades(store)).toEqual([trade(2, { state: 'confirmed' })]);
    expect(notes).toEqual([]);

    store.trades.put(trade(3));
    await store.commit();
    // New writes go to the newest journal; the leftover temp file is gone.
    expect(files(dir)).toEqual(['db.json', 'journal.4.ndjson', 'journal.5.ndjson']);
    expect(trades((await open(dir)).store)).toEqual([trade(2, { state: 'confirmed' }), trade(3)]);
    await store.close();
    expect(files(dir)).toEqual(['db.json', 'journal.6.ndjson']);
    expect(trades((await open(dir)).store)).toEqual([trade(2, { state: 'confirmed' }), trade(3)]);
  });

  it('crash during compaction, after the new snapshot: the journal it replaces is ignored, then removed', async ({ folder: dir }) => {
    // db.json generation 5 already holds journal 4's changes; replaying 4 again would resurrect trade 1.
    writeFileSync(join(dir, 'db.json'), snapshotFile(5, [trade(2)]));
    writeFileSync(journal(dir, 4), encodeRecord([{ op: 'put', table: 'trades', record: trade(1) }]).toString());
    writeFileSync(journal(dir, 5), encodeRecord([{ op: 'put', table: 'trades', record: trade(3) }]).toString());
    const { store } = await open(dir);
    expect(trades(store)).toEqual([trade(2), trade(3)]);
    store.trades.put(trade(4));
    await store.commit();
    expect(files(dir)).toEqual(['db.json', 'journal.5.ndjson']);
    expect(trades((await open(dir)).store)).toEqual([trade(2), trade(3), trade(4)]);
  });

  it('a journal without its snapshot (crash before the first compaction) loads on its own', async ({ folder: dir }) => {
    writeFileSync(journal(dir, 0), encodeRecord([{ op: 'put', table: 'trades', record: trade(1) }]).toString());
    expect(trades((await open(dir)).store)).toEqual([trade(1)]);
  });

  it('a journal newer than db.json with a gap is refused, naming the files, and nothing is touched', async ({ folder: dir }) => {
    writeFileSync(join(dir, 'db.json'), snapshotFile(2, [trade(1)]));
    writeFileSync(journal(dir, 4), encodeRecord([{ op: 'put', table: 'trades', record: trade(2) }]).toString());
    const before = files(dir).map((name) => readFileSync(join(dir, name)));
    await expect(open(dir)).rejects.toThrow(/db\.json is generation 2 but the next journal is journal\.4\.ndjson \(journal\.2\.ndjson is missing\)/);
    expect(files(dir).map((name) => readFileSync(join(dir, name)))).toEqual(before);
  });

  it('journals whose start is missing and no db.json are refused too', async ({ folder: dir }) => {
    writeFileSync(journal(dir, 3), encodeRecord([{ op: 'put', table: 'trades', record: trade(2) }]).toString());
    await expect(open(dir)).rejects.toThrow(/there is no db\.json but the next journal is journal\.3\.ndjson \(journal\.0\.ndjson is missing\)/);
  });

  it.for([
    ['an array', '[1, 2, 3]', /not a deposit-sandbox store \(\(root\): /],
    ['another app’s JSON', '{"posts": [{"id": 1}]}', /not a deposit-sandbox store \(version: /],
    ['a future version', '{"version": 2, "trades": []}', /not a deposit-sandbox store \(version: /],
    ['a bad row', snapshotFile(0, [trade(1), { ...trade(2), amount_cents: 'ten' } as never]), /not a deposit-sandbox store \(trades\[1\]\.amount_cents: /],
    ['not JSON', '{"version": 1, "trades": [', /cannot be loaded: /],
    ['a bad generation', '{"version": 1, "generation": -1}', /cannot be loaded: "generation" in db\.json must be a whole number/],
  ] as const)('%s in db.json is refused with a clear message and the folder is left untouched', async ([, content, message], { folder: dir }) => {
    writeFileSync(join(dir, 'db.json'), content);
    writeFileSync(
      journal(dir, 0),
      encodeRecord([{ op: 'put', table: 'trades', record: trade(9) }])
        .toString()
        .slice(0, 50),
    );
    const before = files(dir).map((name) => [name, readFileSync(join(dir, name))]);
    const error = await open(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataFolderRefusedError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain('it is left untouched');
    expect(files(dir).map((name) => [name, readFileSync(join(dir, name))])).toEqual(before);
  });

  it('a journal record that passes its checksum but not the schema is refused like a bad row', async ({ folder: dir }) => {
    writeFileSync(journal(dir, 0), encodeRecord([{ op: 'put', table: 'trades', record: { ...trade(1), state: 'lost' } as never }]).toString());
    await expect(open(dir)).rejects.toThrow(/not a deposit-sandbox store \(journal\.trades\.00000000-0000-4000-8000-000000000001\.state: /);
  });
});

describe('JournalAdapter: snapshot layout fallbacks', () => {
  it('a db.json reformatted by hand (any valid JSON) still loads', async ({ folder: dir }) => {
    writeFileSync(join(dir, 'db.json'), JSON.stringify({ trades: [trade(1), trade(2)], version: 1 }));
    expect(trades((await open(dir)).store)).toEqual([trade(1), trade(2)]);
  });

  it('a file that stops fitting the layout half-way is read again whole, without duplicates', async ({ folder: dir }) => {
    const { store } = await open(dir);
    store.trades.put(trade(1));
    store.trades.put(trade(2));
    await store.close();
    const file = join(dir, 'db.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/\n\}\n$/, '\n\n}\n'));
    expect(trades((await open(dir)).store)).toEqual([trade(1), trade(2)]);
  });

  it('a truncated db.json is not JSON and is refused', async ({ folder: dir }) => {
    writeFileSync(join(dir, 'db.json'), snapshotFile(0, [trade(1), trade(2)]));
    truncateSync(join(dir, 'db.json'), 400);
    await expect(open(dir)).rejects.toThrow(/cannot be loaded/);
  });
});

describe('JournalAdapter: open descriptors stay bounded', () => {
  it('journals beyond the bound are closed while idle and reopened on the next write, losing nothing', async ({ folder }) => {
    const previous = openJournals.max;
    openJournals.max = 2;
    try {
      const opened = await Promise.all([folderIn(folder), folderIn(folder), folderIn(folder), folderIn(folder)].map(async (dir) => ({ dir, ...(await open(dir)) })));
      for (let round = 1; round <= 3; round++) {
        for (const { store } of opened) {
          store.trades.put(trade(round));
          await store.commit();
          expect(openJournals.size).toBeLessThanOrEqual(2);
        }
      }
      for (const { dir } of opened) {
        const { store: again, notes } = await open(dir);
        expect(trades(again).map((row) => row.id)).toEqual([trade(1).id, trade(2).id, trade(3).id]);
        expect(notes).toEqual([]);
        await again.close();
      }
      for (const { store } of opened) await store.close();
    } finally {
      openJournals.max = previous;
    }
  });
});
