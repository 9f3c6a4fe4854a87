import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, vi } from 'vitest';
import { it } from '../../test/temp-folder.js';
import { sampleTrade } from '../../test/sample-trade.js';
import { Store } from '../store/store.js';
import { WorkspacesJournal } from '../store/workspaces-journal.js';
import { WorkspaceAdapter } from './workspace-adapter.js';

describe('WorkspaceAdapter', () => {
  it("a workspace made on trial writes the workspaces' journal once kept, and folds its entries in when a generation is to be removed", async ({ folder: data }) => {
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
