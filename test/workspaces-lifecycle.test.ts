/**
 * The life of a workspace on disk, through the app: removal while requests run, the expiry
 * sweep racing live creates, refused requests that must not create a workspace.
 */
import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, vi } from 'vitest';
import { it } from './temp-folder.js';
import { createServer } from '../src/server/server.js';
import type { SandboxOptionsInput } from '../src/config/options.js';
import { capturingLogger, checkedApp, DEMO, errorOf, p2pBody, slowBody } from './support.js';
import type { Logger } from '../src/log/logger.js';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function start(options: SandboxOptionsInput, logger: Logger = capturingLogger()) {
  const sandboxServer = await createServer(options, { services: { logger } });
  const sandbox = sandboxServer.root;
  let closed = false;
  cleanup.push(() => (closed ? undefined : sandboxServer.close()));
  const app = checkedApp(sandboxServer);
  const create = (path: string, body: unknown = p2pBody()) => app.request(path, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token }, body: JSON.stringify(body) });
  const orders = async (name: string) => ((await (await app.request(`/w/${name}/_sandbox/trades`)).json()) as { trades: Array<{ order: string }> }).trades.map((t) => t.order).sort();
  return {
    sandbox,
    server: sandboxServer,
    app,
    create,
    orders,
    close: async () => {
      closed = true;
      await sandboxServer.close();
    },
  };
}

describe('removing a workspace ends its work first', () => {
  it('a create still reading its body when DELETE arrives is refused, and never writes into the workspace made again under that name', async ({ folder: data }) => {
    const t = await start({ data });
    expect((await t.create('/w/w1/api/v1/trades/deposit/create', p2pBody({ order: 'before' }))).status).toBe(201);

    // The create is routed into w1 and reads its body; DELETE comes meanwhile.
    const body = slowBody();
    const late = t.app.request('/w/w1/api/v1/trades/deposit/create', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token },
      body: body.stream,
      duplex: 'half',
    } as RequestInit);
    await new Promise((resolve) => setImmediate(resolve));
    const removed = await t.app.request('/w/w1/_sandbox', { method: 'DELETE' });
    expect(removed.status).toBe(200);
    // A new w1, with a trade of its own.
    expect((await t.create('/w/w1/api/v1/trades/deposit/create', p2pBody({ order: 'after' }))).status).toBe(201);

    body.finish(JSON.stringify(p2pBody({ order: 'late' })));
    const answer = await late;
    expect(answer.status).toBe(409);
    const error = await errorOf(answer);
    expect(error.code).toBe('workspace_removed');
    expect(error.message).toContain('nothing it changed was saved');

    expect(await t.orders('w1')).toEqual(['after']);
    // After a restart, the new w1 holds its own trade and nothing of the removed one.
    await t.close();
    const again = await start({ data });
    expect(await again.orders('w1')).toEqual(['after']);
  });
});

describe('the expiry sweep', () => {
  it('racing live creates in 40 workspaces: every trade acknowledged during the sweep is in its workspace, also after a restart', async ({ folder: data }) => {
    // The wall clock (Date) is the test's: --workspace-ttl is measured on it.
    vi.useFakeTimers({ toFake: ['Date'] });
    cleanup.push(() => void vi.useRealTimers());
    const logger = capturingLogger();
    const lines = logger.infos;
    const t = await start({ data, workspaceTtl: '1h', clock: 'manual' }, logger);
    const names = Array.from({ length: 40 }, (_, i) => `ws-${i}`);
    const first = new Map<string, string>();
    const racing: Array<{ name: string; id: string }> = [];
    const create = async (name: string, order: string) => {
      const res = await t.create(`/w/${name}/api/v1/trades/deposit/create`, p2pBody({ order }));
      // 409 workspace_removed: the request ran in a workspace being removed, and nothing was saved.
      expect([201, 409], `${name} ${order}`).toContain(res.status);
      return res.status === 201 ? ((await res.json()) as { id: string }).id : undefined;
    };
    for (const name of names) first.set(name, (await create(name, `${name}-first`))!);

    vi.setSystemTime(Date.now() + 2 * 3600_000);
    const sweep = t.server.workspaces.sweep();
    const creates: Array<Promise<void>> = [];
    for (let round = 0; round < 3; round++) {
      for (const name of names) {
        creates.push(
          create(name, `${name}-${round}`).then((id) => {
            if (id !== undefined) racing.push({ name, id });
          }),
        );
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    const expired = await sweep;
    await Promise.all(creates);
    expect(racing.length).toBeGreaterThan(0);

    const check = async (app: typeof t.app) => {
      for (const { name, id } of racing) {
        expect((await app.request(`/w/${name}/api/v1/trades/${DEMO.id}/${id}`, { headers: { 'X-Token': DEMO.token } })).status, `${name} ${id}`).toBe(200);
        expect((await app.request(`/api/v1/trades/${DEMO.id}/${id}`, { headers: { 'X-Token': DEMO.token } })).status).toBe(404);
      }
      // A trade acknowledged before the sweep is there exactly when its workspace was kept.
      for (const [name, id] of first) {
        const status = (await app.request(`/w/${name}/api/v1/trades/${DEMO.id}/${id}`, { headers: { 'X-Token': DEMO.token } })).status;
        expect(status, name).toBe(expired.includes(name) ? 404 : 200);
      }
    };
    await check(t.app);
    expect(lines.filter((l) => l.includes('expired'))).toHaveLength(expired.length);
    for (const line of lines.filter((l) => l.includes('expired'))) expect(line).toMatch(/unused for [1-9]/);
    await t.close();
    const again = await start({ data, workspaceTtl: '1h', clock: 'manual' });
    await again.server.workspaces.loaded();
    await check(again.app);
  });
});

describe('refused requests create nothing', () => {
  it('401, 403 (cross-site, CORS preflight, Host) and 404 under /w/<new name>/ create no workspace and use up no --max-workspaces', async () => {
    const t = await start({ inMemory: true, adminToken: 'sesame-token', maxWorkspaces: 2 });
    const bearer = { Authorization: 'Bearer sesame-token' };
    const junk: Array<[string, RequestInit, number]> = [];
    for (let i = 0; i < 5; i++) {
      junk.push([`http://localhost/w/a${i}/_sandbox/trades`, {}, 401]);
      junk.push([`http://localhost/w/b${i}/_sandbox/reset`, { method: 'POST', headers: { ...bearer, Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' } }, 403]);
      junk.push([`http://localhost/w/c${i}/_sandbox/trades`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' } }, 403]);
      junk.push([`http://localhost/w/d${i}/api/v1/trades/deposit/create`, { method: 'POST', headers: { Host: 'evil.example' } }, 403]);
      junk.push([`http://localhost/w/e${i}/no/such/route`, { method: 'POST', headers: { Origin: 'https://evil.example' } }, 404]);
      junk.push([`http://localhost/w/f${i}/_sandbox/nothing-here`, { headers: bearer }, 404]);
    }
    for (const [url, init, status] of junk) expect((await t.app.request(url, init)).status, `${init.method ?? 'GET'} ${url}`).toBe(status);
    const listed = (await (await t.app.request('/_sandbox/workspaces', { headers: bearer })).json()) as { workspaces: Array<{ name: string }> };
    expect(listed.workspaces.map((w) => w.name)).toEqual(['default']);
    // The limit is untouched: two real workspaces are created.
    expect((await t.app.request('/w/one/_sandbox/trades', { headers: bearer })).status).toBe(200);
    expect((await t.create('/w/two/api/v1/trades/deposit/create')).status).toBe(201);
  });
});

describe('a removal cut short by kill -9', () => {
  it('leaves the workspace whole or gone: a removal takes the folder out in one rename, and start-up finishes a half-deleted one', async ({ folder: data }) => {
    const t = await start({ data, maxWorkspaces: 2 });
    for (const name of ['w1', 'w2']) expect((await t.create(`/w/${name}/api/v1/trades/deposit/create`, p2pBody({ order: `${name}-1` }))).status).toBe(201);
    await t.close();
    // The state kill -9 leaves in the middle of removing w1: its folder renamed, partly deleted.
    const folder = join(data, 'workspaces');
    cpSync(join(folder, 'w1'), join(folder, 'w1@removed-1700000000000'), { recursive: true });
    rmSync(join(folder, 'w1'), { recursive: true });
    for (const file of readdirSync(join(folder, 'w1@removed-1700000000000'))) if (file.startsWith('db')) rmSync(join(folder, 'w1@removed-1700000000000', file));

    const again = await start({ data, maxWorkspaces: 2 });
    await again.server.workspaces.loaded();
    expect(readdirSync(folder).sort()).toEqual(['w2']);
    const listed = (await (await again.app.request('/_sandbox/workspaces')).json()) as { workspaces: Array<{ name: string }> };
    expect(listed.workspaces.map((w) => w.name)).toEqual(['default', 'w2']);
    // Not counted toward --max-workspaces 2, and the name makes a new, empty workspace.
    expect(await again.orders('w1')).toEqual([]);
    expect(await again.orders('w2')).toEqual(['w2-1']);

    // A removal that runs to its end leaves neither the folder nor a tombstone.
    expect((await again.app.request('/w/w2/_sandbox', { method: 'DELETE' })).status).toBe(200);
    expect(existsSync(join(folder, 'w2'))).toBe(false);
    expect(readdirSync(folder).filter((name) => name.includes('@removed-'))).toEqual([]);
  });
});
