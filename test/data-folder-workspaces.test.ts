/**
 * The data folder's workspaces at start-up: a file named `workspaces` stops start-up with what to
 * do; the notes about a workspace's damaged journal name the workspace; a workspace folder opened
 * alone while the workspaces' journal may hold its latest changes is refused.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { folderIn, it, test } from './temp-folder.js';
import { createServer } from '../src/server/server.js';
import { killAll, serve, serveRefused } from './data-folder-support.js';
import { capturingLogger } from './support.js';

afterAll(killAll);

/** The file's temporary folder: its processes may run on their folders until afterAll stops them. */
let root: string;
test.beforeAll(({ fileFolder }) => {
  root = fileFolder;
});

/** A new data folder for one test. */
function folder(): string {
  return folderIn(root);
}

describe('the workspaces of a data folder at start-up', () => {
  it('a file named `workspaces` in the data folder stops start-up, saying what to do, and is left as it is', async () => {
    const data = folder();
    const file = join(data, 'workspaces');
    writeFileSync(file, 'notes\n');
    const refused = await serveRefused(data);
    expect(refused.code).toBe(1);
    expect(refused.stdout).not.toContain('listening');
    expect(refused.stderr.trim()).toBe(
      `deposit-sandbox: ${file} is a file, but the sandbox keeps its workspaces (/w/<name>) in a folder of that name (${file}/<name>/), so it does not start. ` +
        `Nothing was changed. Move the file away (mv ${file} ${file}.bak) and start again, or start with --data <another folder>.`,
    );
    expect(readFileSync(file, 'utf8')).toBe('notes\n');
    rmSync(file);
    const started = await serve(data);
    expect(await started.stop()).toBe(0);
  });

  it("a workspace's damaged journal: the note names the workspace", async () => {
    const data = folder();
    const workspace = join(data, 'workspaces', 'worker-3');
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'journal.0.ndjson'), 'this is not a journal record\n');
    const logger = capturingLogger();
    const sandboxServer = await createServer({ data }, { services: { logger } });
    const opened = await sandboxServer.workspaces?.open('worker-3');
    expect(opened?.ok).toBe(true);
    await sandboxServer.close();
    expect(logger.warnings).toEqual([expect.stringMatching(/^workspace "worker-3": journal\.0\.ndjson: skipped 1 damaged record/)]);
  });

  it("a workspace's trades written before a kill -9 are in the workspaces' journal: its folder opened alone is refused until the server folds them in", async () => {
    const data = folder();
    const server = await createServer({ data });

    const opened = await server.workspaces?.open('worker-4');
    if (!opened?.ok) throw new Error('not opened');
    opened.sandbox.store.meta.put({ id: 'note', text: 'saved' });
    await opened.sandbox.store.commit();
    // As after kill -9: the server is gone without folding anything in (its lock released by hand).
    server.dataFolder?.releaseSync();
    const workspace = join(data, 'workspaces', 'worker-4');
    await expect(createServer({ data: workspace })).rejects.toThrow(
      `The data folder ${workspace} is the workspace "worker-4" of the data folder ${data}, whose workspaces' journal (${join(data, 'workspaces', '@journal', 'journal.0.ndjson')}) may hold changes of it not yet in ${join(workspace, 'db.json')}`,
    );
    // Started and stopped once on the data folder: the change is in the workspace's db.json, and the folder opens alone.
    const againServer = await createServer({ data });
    const reopened = await againServer.workspaces?.open('worker-4');
    expect(reopened?.ok && reopened.sandbox.store.meta.get('note')).toEqual({ id: 'note', text: 'saved' });
    await againServer.close();
    const aloneServer = await createServer({ data: workspace });
    const alone = aloneServer.root;
    expect(alone.store.meta.get('note')).toEqual({ id: 'note', text: 'saved' });
    await aloneServer.close();
  });
});
