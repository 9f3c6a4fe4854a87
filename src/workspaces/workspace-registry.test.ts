import { mkdirSync, readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, vi } from 'vitest';
import { it } from '../../test/temp-folder.js';
import { startReceiver, type Receiver } from '../../test/callbacks-receiver.js';
import { capturingLogger, DEMO } from '../../test/support.js';
import { createApp } from '../app.js';
import { Refusal } from '../refusals/refusal.js';
import { createWithScenario } from '../scenarios/create-with-scenario.js';
import { createTrade } from '../trades/service.js';
import type { Sandbox } from '../sandbox.js';
import { createServer, type Server } from '../server/server.js';
import { addMerchant } from '../merchants/added-merchants.js';
import { setUploadedScenarios } from '../scenarios/uploaded-scenarios.js';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
  vi.restoreAllMocks();
});

async function open(server: Server, name: string): Promise<Sandbox> {
  const opened = await server.workspaces.open(name);
  if (!opened.ok) throw new Error(opened.message);
  return opened.sandbox;
}

function trade(sandbox: Sandbox, order: string, callback_url?: string) {
  const created = createTrade(sandbox, { merchant: DEMO.id, order, amount_cents: 10_000, amount_currency: 'RUB', type: 'any_bank', ...(callback_url ? { callback_url } : {}) });
  if (created instanceof Refusal) throw new Error(created.message);
  return created;
}

describe('WorkspaceRegistry', () => {
  it('keeps each workspace in <data>/workspaces/<name>/ and loads every one after a restart; default stays at the root', async ({ folder: data }) => {
    const firstServer = await createServer({ data, clock: 'manual' });
    const first = firstServer.root;
    trade(first, 'root-1');
    const a = await open(firstServer, 'a');
    const b = await open(firstServer, 'b');
    trade(a, 'same');
    trade(b, 'same');
    trade(b, 'other');
    a.clock.advance(3_600_000);
    const merchant = await addMerchant(a, {});
    if (!merchant.ok) throw new Error(`the workspace merchant was refused: ${merchant.taken.id} is taken`);
    expect((await setUploadedScenarios(a, 'scenarios:\n  - name: mine\n    description: Mine.\n    match:\n      order: "^mine-"\n')).ok).toBe(true);
    const aNow = a.clock.now();
    await firstServer.close();
    expect(readdirSync(data).sort()).toContain('db.json');
    expect(readdirSync(join(data, 'workspaces')).sort()).toEqual(['a', 'b']);

    const secondServer = await createServer({ data, clock: 'manual' });

    const second = secondServer.root;
    cleanup.push(() => secondServer.close());
    await secondServer.workspaces.loaded();
    expect(second.store.trades.size).toBe(1);
    const list = await secondServer.workspaces.list();
    expect(list.map((w) => [w.name, w.trades])).toEqual([
      ['default', 1],
      ['a', 1],
      ['b', 2],
    ]);
    const a2 = await open(secondServer, 'a');
    expect(a2.clock.now()).toBe(aNow);
    expect(a2.scenarios.names()[0]).toBe('mine');
    expect(a2.merchants.get(merchant.merchant.id)?.secret).toBe(merchant.merchant.secret);
    expect((await open(secondServer, 'b')).merchants.get(merchant.merchant.id)).toBeUndefined();
  });

  it("after a kill -9, a workspace's last write counts from the workspaces' journal, not from its folder's files", async ({ folder: data }) => {
    const firstServer = await createServer({ data });
    const w = await open(firstServer, 'w');
    trade(w, 'x');
    await w.store.commit();
    // As after kill -9: nothing folded in (the lock released by hand). The folder's files look two hours old.
    firstServer.dataFolder?.releaseSync();
    const hoursAgo = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(join(data, 'workspaces', 'w'), hoursAgo, hoursAgo);
    const secondServer = await createServer({ data, workspaceTtl: '1h' });
    cleanup.push(() => secondServer.close());
    await secondServer.workspaces.loaded();
    expect(await secondServer.workspaces.sweep()).toEqual([]);
    expect((await open(secondServer, 'w')).store.trades.size).toBe(1);
  });

  it('no workspace name stands in the way of the server: workspaces named like its journal files are ordinary, and every other keeps writing', async ({ folder: data }) => {
    const firstServer = await createServer({ data });
    const first = firstServer.root;
    const names = ['journal.0.ndjson', 'journal.1.ndjson', 'journal.0.damaged.ndjson', 'other'];
    for (const name of names) {
      const workspace = await open(firstServer, name);
      trade(workspace, `in-${name}`);
      await workspace.store.commit();
    }
    trade(first, 'in-default');
    await firstServer.close();
    expect(readdirSync(join(data, 'workspaces')).sort()).toEqual([...names].sort());
    const secondServer = await createServer({ data });
    cleanup.push(() => secondServer.close());
    for (const name of names) {
      const workspace = await open(secondServer, name);
      expect([...workspace.store.trades.values()].map((t) => t.order)).toEqual([`in-${name}`]);
      trade(workspace, `again-${name}`);
      await workspace.store.commit();
    }
  });

  it('names that differ only in case are two workspaces on a file system that tells case apart', async ({ folder: data }) => {
    const rootServer = await createServer({ data });
    cleanup.push(() => rootServer.close());
    trade(await open(rootServer, 'Worker-3'), 'upper');
    trade(await open(rootServer, 'worker-3'), 'lower');
    expect((await open(rootServer, 'Worker-3')).store.trades.size).toBe(1);
    expect((await open(rootServer, 'worker-3')).store.trades.size).toBe(1);
  });

  it("while the workspaces' journal cannot be read, start-up says so and no workspace expires (its last use may be in there)", async ({ folder: data }) => {
    mkdirSync(join(data, 'workspaces', 'w'), { recursive: true });
    const hoursAgo = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(join(data, 'workspaces', 'w'), hoursAgo, hoursAgo);
    // Not a file: reading it fails.
    mkdirSync(join(data, 'workspaces', '@journal', 'journal.0.ndjson'), { recursive: true });
    const logger = capturingLogger();
    const rootServer = await createServer({ data, workspaceTtl: '1h' }, { services: { logger } });
    cleanup.push(() => rootServer.close());
    await rootServer.workspaces.loaded();
    expect(await rootServer.workspaces.sweep()).toEqual([]);
    expect(logger.warnings).toContainEqual(expect.stringMatching(/^the workspaces' journal could not be read: .*EISDIR/));
    expect(readdirSync(join(data, 'workspaces'))).toContain('w');
  });

  it('expires workspaces unused for --workspace-ttl, with a log line, and removes their folder', async ({ folder: data }) => {
    const logger = capturingLogger();
    const rootServer = await createServer({ data, workspaceTtl: '1h' }, { services: { logger } });
    cleanup.push(() => rootServer.close());
    const lines = logger.infos;
    const start = Date.now();
    trade(await open(rootServer, 'old'), 'x');
    await open(rootServer, 'fresh');
    await rootServer.workspaces.sweep(start + 30 * 60_000);
    expect(rootServer.workspaces.size).toBe(2);
    // "fresh" is used again half an hour later; "old" is not.
    rootServer.workspaces.ready('fresh');
    vi.spyOn(Date, 'now').mockReturnValue(start + 30 * 60_000);
    rootServer.workspaces.ready('fresh');
    vi.mocked(Date.now).mockRestore();
    const expired = await rootServer.workspaces.sweep(start + 61 * 60_000);
    expect(expired).toEqual(['old']);
    expect(lines.join('')).toMatch(/workspace "old" expired: unused for 1h \(--workspace-ttl 1h, last used .*\); its data was removed/);
    // Its folder is gone (beside the workspaces' folders, the workspaces' journal's, @journal).
    expect(readdirSync(join(data, 'workspaces')).filter((name) => name !== '@journal')).toEqual(['fresh']);
    // The name is free again: a new, empty workspace.
    expect((await open(rootServer, 'old')).store.trades.size).toBe(0);
  });

  it('removing a workspace stops its clock and callbacks: a retry due is never sent', async () => {
    const receivers: Receiver[] = [];
    for (let i = 0; i < 2; i++) {
      const receiver = await startReceiver((_request, res) => {
        res.statusCode = 500;
        res.end('no');
      });
      receivers.push(receiver);
      cleanup.push(() => receiver.close());
    }
    const [gone, kept] = receivers as [Receiver, Receiver];
    const rootServer = await createServer({ inMemory: true, callbackRetries: '300ms,300ms,300ms' });
    cleanup.push(() => rootServer.close());
    const a = await open(rootServer, 'gone');
    const b = await open(rootServer, 'kept');
    const ta = trade(a, 'o-1', `${gone.url}/cb`);
    const attempted = new Promise((resolve) => a.callbacks.once('attempt', resolve));
    a.lifecycle.transition(ta.id, 'confirmed', 'admin');
    await attempted;
    await a.store.commit();
    expect(gone.received[0]?.headers['x-sandbox-workspace']).toBe('gone');
    expect(a.store.jobs.size).toBe(1); // the retry, due in 300 ms
    // The other workspace's callback starts later, so its retries fall due after "gone"'s would.
    const tb = trade(b, 'o-1', `${kept.url}/cb`);
    b.lifecycle.transition(tb.id, 'confirmed', 'admin');
    await kept.waitFor(1);
    const removed = await rootServer.workspaces.delete('gone');
    expect(removed).toMatchObject({ ok: true, removed: { name: 'gone', pending_steps: 1 } });
    await kept.waitFor(3);
    expect(kept.received.every((r) => r.headers['x-sandbox-workspace'] === 'kept')).toBe(true);
    expect(gone.received).toHaveLength(1);
  });

  it('refuses a new name past --max-workspaces; default is not counted', async () => {
    const rootServer = await createServer({ inMemory: true, maxWorkspaces: 1 });
    cleanup.push(() => rootServer.close());
    expect((await rootServer.workspaces.open('default')).ok).toBe(true);
    expect((await rootServer.workspaces.open('one')).ok).toBe(true);
    const refused = await rootServer.workspaces.open('two');
    expect(refused).toMatchObject({ ok: false, reason: 'limit' });
    expect((await rootServer.workspaces.open('one')).ok).toBe(true);
  });

  it('an advance in one workspace runs only its own steps', async () => {
    const rootServer = await createServer({ inMemory: true, clock: 'manual' });
    cleanup.push(() => rootServer.close());
    const a = await open(rootServer, 'a');
    const b = await open(rootServer, 'b');
    for (const sandbox of [a, b]) await createWithScenario(sandbox, { merchant: DEMO.id, order: 'sbx-confirm-1', amount_cents: 10_000, amount_currency: 'RUB', type: 'any_bank' }, undefined);
    expect((await a.scheduler.advance(10_000)).ran).toBe(1);
    expect(b.store.jobs.size).toBe(1);
    expect([...b.store.trades.values()][0]?.state).toBe('created');
  });
});

describe('a workspace whose store cannot be loaded', () => {
  it('is reported, the others load, and its folder is left untouched', async ({ folder: data }) => {
    const firstServer = await createServer({ data });
    trade(await open(firstServer, 'good'), 'x');
    trade(await open(firstServer, 'broken'), 'x');
    await firstServer.close();
    const { writeFileSync, readFileSync } = await import('node:fs');
    const file = join(data, 'workspaces', 'broken', 'db.json');
    writeFileSync(file, '{"not":"a store"}');
    const logger = capturingLogger();
    const lines = logger.warnings;
    const secondServer = await createServer({ data }, { services: { logger } });
    cleanup.push(() => secondServer.close());
    await secondServer.workspaces.loaded();
    expect(lines.join('')).toContain('workspace "broken" could not be loaded');
    expect((await open(secondServer, 'good')).store.trades.size).toBe(1);
    await expect(secondServer.workspaces.open('broken')).rejects.toThrow(/db\.json/);
    const res = await createApp(secondServer).request('/w/broken/_sandbox/clock');
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'workspace_unavailable',
      message: expect.stringContaining('Workspace "broken" cannot be loaded'),
    });
    expect(readFileSync(file, 'utf8')).toBe('{"not":"a store"}');
  });
});
