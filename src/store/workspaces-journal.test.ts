import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, vi } from 'vitest';
import { it } from '../../test/temp-folder.js';
import { sampleTrade } from '../../test/sample-trade.js';
import { JournalAdapter } from './journal-adapter.js';
import { encodeRecord } from './journal-record.js';
import { JournalWriter } from './journal-writer.js';
import { Store } from './store.js';
import { WorkspacesJournal, type WorkspacesJournalOptions } from './workspaces-journal.js';

/** The workspaces folder of a data folder. */
function workspacesFolder(data: string): string {
  return join(data, 'workspaces');
}

/** One server's view: the journal, and the stores of the workspaces it opened. */
class Server {
  readonly journal: WorkspacesJournal;
  readonly notes: string[] = [];
  readonly stores = new Map<string, Store>();
  constructor(
    readonly folder: string,
    options: WorkspacesJournalOptions = {},
  ) {
    this.journal = new WorkspacesJournal(folder, { warn: (note) => this.notes.push(note), ...options });
  }
  async open(name: string): Promise<Store> {
    const store = await Store.open(new JournalAdapter(join(this.folder, name), { workspace: { journal: this.journal, name }, warn: (note) => this.notes.push(note) }));
    this.stores.set(name, store);
    return store;
  }
  /** Every workspace opened, and the journal told which workspaces there are (the registry does that as it starts loading). */
  async openAll(names: string[]): Promise<Store[]> {
    const stores = [];
    for (const name of names) stores.push(await this.open(name));
    this.journal.settle(new Set(names));
    return stores;
  }
  async close(): Promise<void> {
    for (const store of this.stores.values()) await store.close();
    await this.journal.close();
  }
}

/**
 * Workspace "a" saves a trade, is closed (its db.json written) and its entries cancelled: what a
 * DELETE does up to removing the folder (the registry's order: the journal first, then the folder).
 */
async function removeAfterOneTrade(server: Server): Promise<void> {
  const [a] = await server.openAll(['a']);
  a?.trades.put(sampleTrade(1));
  await a?.commit();
  await a?.close();
  await server.journal.remove('a');
}

/** The workspaces' journal's folder in a workspaces folder. */
const journalFolder = (folder: string) => join(folder, '@journal');
const journalFiles = (folder: string) => (existsSync(journalFolder(folder)) ? readdirSync(journalFolder(folder)) : []).filter((name) => name.startsWith('journal.')).sort();
const lines = (folder: string, generation: number) =>
  readFileSync(join(journalFolder(folder), `journal.${generation}.ndjson`), 'utf8')
    .split('\n')
    .filter(Boolean);
const ids = (store: Store) => [...store.trades.values()].map((t) => t.id).sort();

describe('WorkspacesJournal: one journal for the workspaces of a data folder', () => {
  it('workspaces that commit in one turn share one record; after a restart without shutdown each has its own changes and no other', async ({ folder: data }) => {
    const folder = workspacesFolder(data);
    const server = new Server(folder);
    const [a, b, c] = await server.openAll(['a', 'b', 'c']);
    if (!a || !b || !c) throw new Error('not opened');
    a.trades.put(sampleTrade(1));
    b.trades.put(sampleTrade(2));
    c.trades.put(sampleTrade(3));
    c.trades.put(sampleTrade(4));
    await Promise.all([a.commit(), b.commit(), c.commit()]);
    // One line, three entries.
    const [record, ...more] = lines(folder, 0);
    expect(more).toEqual([]);
    expect((JSON.parse(record ?? '') as { changes: Array<[string, unknown[]]> }).changes.map(([name, changes]) => [name, changes.length])).toEqual([
      ['a', 1],
      ['b', 1],
      ['c', 2],
    ]);
    b.trades.delete(sampleTrade(2).id);
    await b.commit();
    // No close(): as after kill -9.
    const again = new Server(folder);
    const [a2, b2, c2] = await again.openAll(['a', 'b', 'c']);
    expect(a2 && ids(a2)).toEqual([sampleTrade(1).id]);
    expect(b2 && ids(b2)).toEqual([]);
    expect(c2 && ids(c2)).toEqual([sampleTrade(3).id, sampleTrade(4).id].sort());
    expect(again.notes).toEqual([]);
  });

  it('a clean stop folds every workspace into its db.json and leaves no journal; the data loads from the snapshots alone', async ({ folder: data }) => {
    const folder = workspacesFolder(data);
    const server = new Server(folder);
    const [a, b] = await server.openAll(['a', 'b']);
    a?.trades.put(sampleTrade(1));
    b?.trades.put(sampleTrade(2));
    await Promise.all([a?.commit(), b?.commit()]);
    expect(journalFiles(folder)).toEqual(['journal.0.ndjson']);
    await server.close();
    expect(journalFiles(folder)).toEqual([]);
    const snapshot = JSON.parse(readFileSync(join(folder, 'a', 'db.json'), 'utf8')) as Record<string, unknown>;
    expect(snapshot['workspaces_journal']).toEqual({ generation: 0, offset: expect.any(Number) });
    const again = new Server(folder);
    const [a2, b2] = await again.openAll(['a', 'b']);
    expect(a2 && ids(a2)).toEqual([sampleTrade(1).id]);
    expect(b2 && ids(b2)).toEqual([sampleTrade(2).id]);
  });

  it('writes after a clean restart survive a later crash: a place in the journal is never used twice for one workspace', async ({ folder: data }) => {
    const folder = workspacesFolder(data);
    const first = new Server(folder);
    const [victim] = await first.openAll(['victim']);
    for (let n = 1; n <= 30; n++) {
      victim?.trades.put(sampleTrade(n));
      await victim?.commit();
    }
    // A clean stop: folded into db.json, which keeps the place it holds up to; the journal is removed.
    await first.close();
    const held = (JSON.parse(readFileSync(join(folder, 'victim', 'db.json'), 'utf8')) as { workspaces_journal: { generation: number; offset: number } }).workspaces_journal;
    expect(journalFiles(folder)).toEqual([]);
    const second = new Server(folder);
    const [again] = await second.openAll(['victim']);
    for (let n = 31; n <= 32; n++) {
      again?.trades.put(sampleTrade(n));
      await again?.commit();
    }
    // Its new records go past the place its snapshot holds, in a generation of their own.
    expect(journalFiles(folder)).toEqual([`journal.${held.generation + 1}.ndjson`]);
    // No close(): as after kill -9.
    const third = new Server(folder);
    const [last] = await third.openAll(['victim']);
    expect(last?.trades.size).toBe(32);
    expect(third.notes).toEqual([]);
  });

  it('a snapshot ahead of a journal cut short: the workspace writes past it, and a crash keeps those writes', async ({ folder: data }) => {
    const folder = workspacesFolder(data);
    const first = new Server(folder);
    const [a, b] = await first.openAll(['a', 'b']);
    for (let n = 1; n <= 5; n++) {
      a?.trades.put(sampleTrade(n));
      await a?.commit();
    }
    await a?.close();
    b?.trades.put(sampleTrade(10));
    await b?.commit();
    // No close(). The journal loses its end (a copy taken while in use): "a"'s snapshot now holds up
    // to a place past the end of the file, where "b" writes next.
    const journal = join(journalFolder(folder), 'journal.0.ndjson');
    const whole = readFileSync(journal);
    writeFileSync(journal, whole.subarray(0, whole.indexOf('\n') + 1));
    const second = new Server(folder);
    const [a2, b2] = await second.openAll(['a', 'b']);
    expect(a2?.trades.size).toBe(5);
    b2?.trades.put(sampleTrade(11));
    await b2?.commit();
    a2?.trades.put(sampleTrade(6));
    await a2?.commit();
    const third = new Server(folder);
    const [a3, b3] = await third.openAll(['a', 'b']);
    expect(a3?.trades.size).toBe(6);
    expect(b3 && ids(b3)).toContain(sampleTrade(11).id);
  });

  it('lives in a folder of its own, where no workspace can stand: a workspace named like a journal file is an ordinary workspace', async ({ folder: data }) => {
    const folder = workspacesFolder(data);
    const server = new Server(folder);
    const names = ['journal.0.ndjson', 'journal.1.ndjson', 'other'];
    const stores = await server.openAll(names);
    for (const [index, store] of stores.entries()) store.trades.put(sampleTrade(index + 1));
    await Promise.all(stores.map((store) => store.commit()));
    expect(journalFiles(folder)).toEqual(['journal.0.ndjson']);
    // No close(): as after kill -9; every workspace has its own trade.
    const again = new Server(folder);
    const reopened = await again.openAll(names);
    expect(reopened.map((store) => ids(store))).toEqual(names.map((_, index) => [sampleTrade(index + 1).id]));
    expect(again.notes).toEqual([]);
  });

  it('a journal of the earlier layout (files in the workspaces folder itself) is moved into its folder and replayed', async ({ folder: data }) => {
    const folder = workspacesFolder(data);
    const server = new Server(folder);
    const [a] = await server.openAll(['a']);
    a?.trades.put(sampleTrade(1));
    await a?.commit();
    // No close(); the journal put where an earlier version wrote it.
    for (const name of journalFiles(folder)) renameSync(join(journalFolder(folder), name), join(folder, name));
    const again = new Server(folder);
    const [a2] = await again.openAll(['a']);
    expect(a2 && ids(a2)).toEqual([sampleTrade(1).id]);
    expect(readdirSync(folder).filter((name) => name.startsWith('journal.'))).toEqual([]);
    await again.close();
    expect(existsSync(journalFolder(folder))).toBe(false);
  });

  it("a removed workspace's entries no longer count: one made later under its name starts empty and keeps only its own", async ({ folder: data }) => {
    const folder = workspacesFolder(data);
    const server = new Server(folder);
    await removeAfterOneTrade(server);
    rmSync(join(folder, 'a'), { recursive: true });
    const a2 = await server.open('a');
    expect(ids(a2)).toEqual([]);
    a2.trades.put(sampleTrade(2));
    await a2.commit();
    // Restart without shutdown: the new "a" has its own trade only.
    const again = new Server(folder);
    const [a3] = await again.openAll(['a']);
    expect(a3 && ids(a3)).toEqual([sampleTrade(2).id]);
  });

  it('a removal that stopped before the folder went (kill -9): the workspace is whole, from the snapshot its removal wrote', async ({ folder: data }) => {
    const folder = workspacesFolder(data);
    await removeAfterOneTrade(new Server(folder));
    const again = new Server(folder);
    const [a2] = await again.openAll(['a']);
    expect(a2 && ids(a2)).toEqual([sampleTrade(1).id]);
  });

  it('past its bound it starts a new generation; idle workspaces fold their entries in and the old generation is removed', async ({ folder: data }) => {
    const folder = workspacesFolder(data);
    const server = new Server(folder, { rotateBytes: 4096 });
    const [busy, idle] = await server.openAll(['busy', 'idle']);
    if (!busy || !idle) throw new Error('not opened');
    idle.trades.put(sampleTrade(0));
    await idle.commit();
    for (let i = 1; i <= 12; i++) {
      busy.trades.put(sampleTrade(i));
      await busy.commit();
    }
    // Folding runs in the background: wait until generation 0 is gone.
    await vi.waitFor(() => expect(journalFiles(folder)).not.toContain('journal.0.ndjson'), { timeout: 1000, interval: 5 });
    expect(journalFiles(folder)).not.toContain('journal.0.ndjson');
    expect((JSON.parse(readFileSync(join(folder, 'idle', 'db.json'), 'utf8')) as { trades: unknown[] }).trades).toHaveLength(1);
    // Restart without shutdown: nothing lost on either side.
    const again = new Server(folder);
    const [busy2, idle2] = await again.openAll(['busy', 'idle']);
    expect(busy2?.trades.size).toBe(12);
    expect(idle2 && ids(idle2)).toEqual([sampleTrade(0).id]);
  });

  it('a workspace whose own write passes the bound and which then stays idle folds its entries in all the same', async ({ folder: data }) => {
    const folder = workspacesFolder(data);
    const server = new Server(folder, { rotateBytes: 4096 });
    const [only] = await server.openAll(['only']);
    if (!only) throw new Error('not opened');
    // One record of 20 trades (about 8 KB): past the bound while it is being written.
    for (let i = 1; i <= 20; i++) only.trades.put(sampleTrade(i));
    await only.commit();
    await vi.waitFor(() => expect(journalFiles(folder)).not.toContain('journal.0.ndjson'), { timeout: 1000, interval: 5 });
    expect(journalFiles(folder)).toEqual([]);
    expect((JSON.parse(readFileSync(join(folder, 'only', 'db.json'), 'utf8')) as { trades: unknown[] }).trades).toHaveLength(20);
  });

  it('a record cut short at the end is dropped with a note and written over; a damaged one is skipped, named, and its file kept aside', async ({ folder: data }) => {
    const folder = workspacesFolder(data);
    const server = new Server(folder);
    const [a] = await server.openAll(['a']);
    a?.trades.put(sampleTrade(1));
    await a?.commit();
    const damaged = encodeRecord([['a', [{ op: 'put', table: 'trades', record: sampleTrade(9) }]]]);
    // One byte of the JSON changed: the checksum no longer matches.
    damaged.writeUInt8((damaged.readUInt8(damaged.length - 4) ^ 1) & 0x7f, damaged.length - 4);
    appendFileSync(join(journalFolder(folder), 'journal.0.ndjson'), damaged);
    appendFileSync(join(journalFolder(folder), 'journal.0.ndjson'), encodeRecord([['a', [{ op: 'put', table: 'trades', record: sampleTrade(2) }]]]).subarray(0, 30));

    const again = new Server(folder);
    const [a2] = await again.openAll(['a']);
    expect(a2 && ids(a2)).toEqual([sampleTrade(1).id]);
    expect(again.notes).toEqual([
      expect.stringMatching(/^workspaces\/@journal\/journal\.0\.ndjson: skipped 1 damaged record \(first at byte \d+: checksum mismatch \(it seems to hold changes of "a"\)\)/),
      expect.stringMatching(/^workspaces\/@journal\/journal\.0\.ndjson: dropped an incomplete last record .*either a write was cut short .* or the file itself was cut short .*stay in that file/i),
    ]);
    // Never written again: new records go to the next generation; a clean stop keeps the damaged file aside.
    a2?.trades.put(sampleTrade(3));
    await a2?.commit();
    expect(journalFiles(folder)).toEqual(['journal.0.ndjson', 'journal.1.ndjson']);
    await again.close();
    expect(journalFiles(folder)).toEqual(['journal.0.damaged.ndjson']);
  });

  it('when the copy of a torn record cannot be written, the write fails, and the next write cuts the record off before writing', async ({ folder: data }) => {
    const folder = workspacesFolder(data);
    const server = new Server(folder);
    const [a] = await server.openAll(['a']);
    a?.trades.put(sampleTrade(1));
    await a?.commit();
    const file = join(journalFolder(folder), 'journal.0.ndjson');
    const whole = readFileSync(file).length;
    const torn = encodeRecord([['a', [{ op: 'put', table: 'trades', record: sampleTrade(2) }]]]).subarray(0, 60);
    appendFileSync(file, torn);
    // Where the torn bytes' copy goes stands a folder: the copy fails, as on a full disk.
    const copy = join(journalFolder(folder), `journal.0.torn-${whole}.ndjson`);
    mkdirSync(copy);

    const again = new Server(folder);
    const [a2] = await again.openAll(['a']);
    a2?.trades.put(sampleTrade(3));
    await expect(a2?.commit()).rejects.toMatchObject({ name: 'WriteFailedError' });
    rmSync(copy, { recursive: true });
    a2?.trades.put(sampleTrade(4));
    await a2?.commit();
    expect(readFileSync(copy)).toEqual(torn);
    expect(readFileSync(file).subarray(whole)).toEqual(encodeRecord([['a', [{ op: 'put', table: 'trades', record: sampleTrade(4) }]]]));
    const third = new Server(folder);
    const [a3] = await third.openAll(['a']);
    expect(a3 && ids(a3)).toEqual([sampleTrade(1).id, sampleTrade(4).id].sort());
    expect(third.notes).toEqual([]);
  });

  it('a failed write is refused for every workspace in its record, undone in memory, and leaves nothing in the file', async ({ folder: data }) => {
    const folder = workspacesFolder(data);
    const failing = new JournalWriter();
    failing.append = () => Promise.reject(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
    const server = new Server(folder, { writer: failing });
    const [a, b] = await server.openAll(['a', 'b']);
    a?.trades.put(sampleTrade(1));
    b?.trades.put(sampleTrade(2));
    const results = await Promise.allSettled([a?.commit(), b?.commit()]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/ENOSPC|no space/);
    expect(a?.trades.size).toBe(0);
    expect(b?.trades.size).toBe(0);
    expect(readFileSync(join(journalFolder(folder), 'journal.0.ndjson'), 'utf8')).toBe('');
  });

  it('a workspace folder with a journal of its own (an earlier version) loads as it is and folds it in at its first compaction', async ({ folder: data }) => {
    const folder = workspacesFolder(data);
    mkdirSync(join(folder, 'old'), { recursive: true });
    writeFileSync(join(folder, 'old', 'journal.0.ndjson'), encodeRecord([{ op: 'put', table: 'trades', record: sampleTrade(1) }]));
    const server = new Server(folder);
    const [old] = await server.openAll(['old']);
    expect(old && ids(old)).toEqual([sampleTrade(1).id]);
    old?.trades.put(sampleTrade(2));
    await old?.commit();
    // The new change went to the workspaces' journal, not to the old one.
    expect(
      readFileSync(join(folder, 'old', 'journal.0.ndjson'), 'utf8')
        .split('\n')
        .filter(Boolean),
    ).toHaveLength(1);
    await server.close();
    expect(readdirSync(join(folder, 'old'))).toEqual(['db.json']);
    const again = new Server(folder);
    const [old2] = await again.openAll(['old']);
    expect(old2 && ids(old2)).toEqual([sampleTrade(1).id, sampleTrade(2).id].sort());
  });

  it('a workspace folder removed by hand while the server was stopped: its entries are let go, and a workspace made under its name starts empty', async ({ folder: data }) => {
    const folder = workspacesFolder(data);
    const server = new Server(folder);
    const [gone] = await server.openAll(['gone']);
    gone?.trades.put(sampleTrade(1));
    await gone?.commit();
    // kill -9, then the folder is removed by hand.
    rmSync(join(folder, 'gone'), { recursive: true });
    const again = new Server(folder);
    await again.journal.ready();
    again.journal.settle(new Set());
    const made = await again.open('gone');
    expect(made.trades.size).toBe(0);
  });
});
