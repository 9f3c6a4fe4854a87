/**
 * Refused requests create nothing, also when the route itself refuses them: a create with a
 * wrong X-Auth (401) or a read of a trade that does not exist (404) under `/w/<new name>/`
 * leaves no workspace, no folder and no place used under --max-workspaces.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { folderIn, it } from './temp-folder.js';
import { createServer } from '../src/server/server.js';
import { checkedApp, DEMO, errorOf, p2pBody, slowBody } from './support.js';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** A sandbox on a new data folder inside `folder`, taking at most `maxWorkspaces`. */
async function start(folder: string, maxWorkspaces: number) {
  const data = folderIn(folder);
  const sandboxServer = await createServer({ data, maxWorkspaces });
  const sandbox = sandboxServer.root;
  cleanup.push(() => sandboxServer.close());
  const app = checkedApp(sandboxServer);
  const create = (name: string, body: unknown = p2pBody(), xAuth: string = DEMO.token) =>
    app.request(`/w/${name}/api/v1/trades/deposit/create`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': xAuth }, body: JSON.stringify(body) });
  const read = (name: string, id: string) => app.request(`/w/${name}/api/v1/trades/${DEMO.id}/${id}`, { headers: { 'X-Token': DEMO.token } });
  const listed = async () => ((await (await app.request('/_sandbox/workspaces')).json()) as { workspaces: Array<{ name: string; trades: number }> }).workspaces;
  const folders = () => {
    try {
      // The workspaces' folders (beside them, the workspaces' journal's, @journal).
      return readdirSync(join(data, 'workspaces'), { withFileTypes: true })
        .flatMap((entry) => (entry.isDirectory() && entry.name !== '@journal' ? [entry.name] : []))
        .sort();
    } catch {
      return [];
    }
  };
  return { data, sandbox, server: sandboxServer, app, create, read, listed, folders };
}

describe('refused requests under a new /w/<name> create nothing', () => {
  it('200 wrong-X-Auth creates and unknown-trade reads, each under a new name, leave no workspace and no folder; a real worker then gets its own', async ({ folder }) => {
    const t = await start(folder, 3);
    for (let i = 0; i < 100; i++) {
      // Two at a time: requests in flight hold a place under the limit (3) while they run.
      const [create, read] = await Promise.all([t.create(`junk-auth-${i}`, p2pBody(), i % 2 === 0 ? 'not-the-token' : 'ab'.repeat(32)), t.read(`junk-read-${i}`, randomUUID())]);
      expect(create.status, `create ${i}`).toBe(401);
      expect(read.status, `read ${i}`).toBe(404);
    }
    expect(await t.listed()).toEqual([expect.objectContaining({ name: 'default' })]);
    expect(t.folders()).toEqual([]);
    expect(t.server.workspaces.size).toBe(0);

    // A legitimate worker: its create is a 201 in a workspace of its own, the only one listed.
    const res = await t.create('worker-1', p2pBody({ order: 'w1-1' }));
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { id: string }).id;
    expect((await t.listed()).map((w) => [w.name, w.trades])).toEqual([
      ['default', 0],
      ['worker-1', 1],
    ]);
    expect(t.folders()).toEqual(['worker-1']);
    expect((await t.read('worker-1', id)).status).toBe(200);
  });

  it('junk in flight takes a place only while it runs: at the limit a new name gets 429, and the place is free again once the junk is answered', async ({ folder }) => {
    const t = await start(folder, 1);
    // A create with a wrong X-Auth whose body is still being sent: its new workspace is on trial.
    const body = slowBody();
    const slow = t.app.request('/w/junk-slow/api/v1/trades/deposit/create', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Auth': 'wrong' },
      body: body.stream,
      duplex: 'half',
    } as RequestInit);
    // Other junk, one at a time, is answered 401 until the slow one holds the only place: then 429.
    let answer = await t.create('junk-probe', p2pBody(), 'wrong');
    for (let i = 0; i < 1000 && answer.status === 401; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      answer = await t.create('junk-probe', p2pBody(), 'wrong');
    }
    expect(answer.status).toBe(429);
    expect((await errorOf(answer)).message).toContain('(1 of them new, for requests still running)');
    body.finish(JSON.stringify(p2pBody()));
    expect((await slow).status).toBe(401);
    expect(await t.listed()).toHaveLength(1);
    expect((await t.create('worker-1')).status).toBe(201);
  });

  it('requests sharing a new workspace: one accepted keeps it with its trade, whatever the others were answered', async ({ folder }) => {
    const t = await start(folder, 2);
    const [bad, good, missing] = await Promise.all([t.create('shared', p2pBody(), 'wrong'), t.create('shared', p2pBody({ order: 'shared-1' })), t.read('shared', randomUUID())]);
    expect([bad.status, good.status, missing.status]).toEqual([401, 201, 404]);
    expect((await t.listed()).map((w) => [w.name, w.trades])).toEqual([
      ['default', 0],
      ['shared', 1],
    ]);
    // Once kept, a refusal in it keeps it too.
    expect((await t.read('shared', randomUUID())).status).toBe(404);
    expect((await t.listed()).map((w) => w.name)).toEqual(['default', 'shared']);
  });

  it('a new workspace that cannot be made (503 workspace_unavailable) holds no place under the limit', async ({ folder }) => {
    const t = await start(folder, 1);
    // A file where the workspace's folder would be: its store cannot be opened.
    mkdirSync(join(t.data, 'workspaces'));
    writeFileSync(join(t.data, 'workspaces', 'broken'), 'not a folder');
    for (let i = 0; i < 3; i++) {
      const res = await t.create('broken');
      expect(res.status).toBe(503);
      expect((await errorOf(res)).code).toBe('workspace_unavailable');
    }
    expect(await t.listed()).toHaveLength(1);
    expect((await t.create('worker-1')).status).toBe(201);
  });

  it("a 422 (a merchant's test of its own error handling) and a scenario's forced 401 keep the new workspace, and its report shows them", async ({ folder }) => {
    const t = await start(folder, 3);
    const invalid = await t.create('checker', p2pBody({ amount_cents: -5 }));
    expect(invalid.status).toBe(422);
    const forced = await t.create('forced', p2pBody({ order: 'sbx-unauth-1' }));
    expect(forced.status).toBe(401);
    expect((await t.listed()).map((w) => w.name)).toEqual(['default', 'checker', 'forced']);
    const report = (await (await t.app.request('/w/checker/_sandbox/report')).json()) as { total: number };
    expect(report.total).toBeGreaterThan(0);
    expect(t.folders()).toEqual(['checker', 'forced']);
  });
});
