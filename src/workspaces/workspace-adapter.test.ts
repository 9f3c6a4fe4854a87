import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sampleTrade } from '../../test/sample-trade.js';
import { Store } from '../store/store.js';
import { WorkspacesJournal } from '../store/workspaces-journal.js';
import { WorkspaceAdapter } from './workspace-adapter.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('WorkspaceAdapter', () => {
  it("a workspace made on trial writes the workspaces' journal once kept, and folds its entries in when a generation is to be removed", async () => {
    const data = mkdtempSync(join(tmpdir(), 'deposit-sandbox-wsa-'));
    dirs.push(data);
    const folder = join(data, 'workspaces');
    const journal = new WorkspacesJournal(folder, { rotateBytes: 4096 });
    journal.settle(new Set());
    const open = (name: string) => Store.open(new WorkspaceAdapter(name, join(folder, name), { workspace: { journal, name } }, true));
    const fresh = await open('fresh');
    // On trial: nothing on disk until its first write.
    expect(existsSync(join(folder, 'fresh'))).toBe(false);
    fresh.trades.put(sampleTrade(0));
    await fresh.commit();
    const busy = await open('busy');
    for (let i = 1; i <= 12; i++) {
      busy.trades.put(sampleTrade(i));
      await busy.commit();
    }
    // Past the bound: "fresh", idle, folds its entry into its db.json and generation 0 goes.
    const journalFolder = join(folder, '@journal');
    await vi.waitFor(() => expect(readdirSync(journalFolder)).not.toContain('journal.0.ndjson'), { timeout: 1000, interval: 5 });
    expect(readdirSync(journalFolder)).toContain('journal.1.ndjson');
    expect(readdirSync(join(folder, 'fresh'))).toEqual(['db.json']);
  });
});
