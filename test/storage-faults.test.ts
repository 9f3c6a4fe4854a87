/**
 * Faults of the data folder injected through the store adapter (the same answers as a real
 * full disk, see test/disk-full.test.ts): a write that fails changes nothing, is answered
 * with a storage error, sends no callback and leaves no ghost trade; reads keep working;
 * writes and the clock's steps resume by themselves once space is back.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, vi } from 'vitest';
import { folderIn, it } from './temp-folder.js';
import { createApp } from '../src/app.js';
import type { Sandbox } from '../src/sandbox.js';
import { createServer } from '../src/server/server.js';
import type { StoreAdapter, StoreSink } from '../src/store/adapter.js';
import { JournalAdapter } from '../src/store/journal-adapter.js';
import type { Change } from '../src/store/table.js';
import { Store } from '../src/store/store.js';
import { startReceiver, type Receiver } from './callbacks-receiver.js';
import { capturingLogger, DEMO, errorOf, nextOrder, p2pBody } from './support.js';

/** A journal store whose writes fail with `code` while `failing` is set (a full disk). */
class FaultyAdapter implements StoreAdapter {
  readonly inner: JournalAdapter;
  failing: string | undefined;
  failures = 0;
  constructor(dir: string) {
    this.inner = new JournalAdapter(dir, { warn: () => undefined });
  }
  get location(): string {
    return this.inner.location;
  }
  get folder(): string {
    return this.inner.dir;
  }
  read(): Promise<unknown> {
    return this.inner.read();
  }
  load(sink: StoreSink): Promise<boolean> {
    return this.inner.load(sink);
  }
  write(changes: readonly Change[], snapshot: () => unknown): Promise<void> {
    if (this.failing) {
      this.failures++;
      return Promise.reject(Object.assign(new Error(`${this.failing}: no space left on device, write`), { code: this.failing }));
    }
    return this.inner.write(changes, snapshot);
  }
  close(snapshot: () => unknown): Promise<void> {
    return this.inner.close(snapshot);
  }
}

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
  vi.restoreAllMocks();
});

interface Harness {
  sandbox: Sandbox;
  /** What the sandbox said: its logger, given at creation. */
  logger: ReturnType<typeof capturingLogger>;
  adapter: FaultyAdapter;
  dir: string;
  post(path: string, body: unknown): Promise<Response>;
  get(path: string): Promise<Response>;
  request(path: string, init: RequestInit): Promise<Response>;
}

/** A sandbox whose store writes through a FaultyAdapter, on a new data folder inside `folder`. */
async function harness(folder: string, options: Record<string, unknown> = {}): Promise<Harness> {
  const logger = capturingLogger();
  const dir = folderIn(folder);
  const adapter = new FaultyAdapter(dir);
  const sandboxServer = await createServer({ inMemory: false, data: dir, ...options }, { adapter, services: { logger } });
  const sandbox = sandboxServer.root;
  cleanup.push(() => {
    adapter.failing = undefined;
    return sandboxServer.close();
  });
  const app = createApp(sandboxServer);
  return {
    sandbox,
    logger,
    adapter,
    dir,
    post: async (path, body) => app.request(path, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token }, body: JSON.stringify(body) }),
    get: async (path) => app.request(path, { headers: { 'X-Token': DEMO.token } }),
    request: async (path, init) => app.request(path, init),
  };
}

const create = '/api/v1/trades/deposit/create';

describe('a full disk, injected through the adapter', () => {
  it('refuses changes with storage_full (503 provider, 507 admin), keeps reads, logs once, and resumes without a restart', async ({ folder }) => {
    const h = await harness(folder);
    const kept = (await (await h.post(create, p2pBody())).json()) as { id: string };

    h.adapter.failing = 'ENOSPC';
    const refused = await h.post(create, p2pBody());
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    const error = await errorOf(refused);
    expect(error.code).toBe('storage_full');
    expect(error.message).toContain(h.dir);
    expect(error.message).toMatch(/Free space/);
    expect(error.message).not.toMatch(/sandbox bug/);

    const admin = await h.post(`/_sandbox/trades/${kept.id}/transition`, { state: 'confirmed' });
    expect(admin.status).toBe(507);
    expect((await errorOf(admin)).code).toBe('storage_full');
    await h.post(create, p2pBody());

    // Reads keep working, and the refused changes are not in memory.
    expect((await h.get(`/api/v1/trades/${DEMO.id}/${kept.id}`)).status).toBe(200);
    expect((await h.get('/_sandbox/health')).status).toBe(200);
    expect(h.sandbox.store.trades.size).toBe(1);
    expect(h.sandbox.store.trades.get(kept.id)?.state).toBe('created');
    const episode = h.logger.warnings.filter((line) => line.includes('is full'));
    expect(episode).toHaveLength(1);

    h.adapter.failing = undefined;
    const resumed = await h.post(create, p2pBody());
    expect(resumed.status).toBe(201);
    expect(h.logger.warnings.filter((line) => line.includes('work again'))).toHaveLength(1);
    const ids = [...h.sandbox.store.trades.values()].map((trade) => trade.id).sort();

    // Everything acknowledged is on disk; nothing refused is.
    await h.sandbox.close();
    const reopened = await Store.open(new JournalAdapter(h.dir, { warn: () => undefined }));
    expect([...reopened.trades.values()].map((trade) => trade.id).sort()).toEqual(ids);
  });

  it('a refused create leaves no ghost: the same order is accepted once space is back (defect 2)', async ({ folder }) => {
    const h = await harness(folder);
    const body = p2pBody();
    h.adapter.failing = 'ENOSPC';
    expect((await h.post(create, body)).status).toBe(503);
    h.adapter.failing = undefined;
    const retried = await h.post(create, body);
    expect(retried.status).toBe(201);
    expect(h.sandbox.store.trades.size).toBe(1);
  });

  it('a refused transition sends no callback and leaves no history or job (defect 1)', async ({ folder }) => {
    const receiver: Receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    const h = await harness(folder);
    const created = (await (await h.post(create, p2pBody({ callback_url: `${receiver.url}/cb` }))).json()) as { id: string };
    h.adapter.failing = 'ENOSPC';
    expect((await h.post(`/_sandbox/trades/${created.id}/transition`, { state: 'confirmed' })).status).toBe(507);
    const trade = h.sandbox.store.trades.get(created.id);
    expect(trade?.state).toBe('created');
    expect(trade?.history).toHaveLength(1);
    expect(h.sandbox.store.callbacks.size).toBe(0);
    expect(h.sandbox.scheduler.pending()).toEqual([]);

    // Callbacks of one trade go out in order: if the refused change had queued one, it would come first.
    h.adapter.failing = undefined;
    expect((await h.post(`/_sandbox/trades/${created.id}/transition`, { state: 'canceled' })).status).toBe(200);
    const [first] = await receiver.waitFor(1);
    expect(JSON.parse(first?.body ?? '{}')).toMatchObject({ id: created.id, state: 'canceled' });
    expect(h.sandbox.store.callbacks.size).toBe(1);
  });

  it('a merchant or a scenario upload refused by a failed write takes no effect, and leaves no ghost', async ({ folder }) => {
    const h = await harness(folder);
    const id = '0b7c4a2e-9d31-4f5a-8e6b-1c2d3e4f5a6b';
    const merchant = { id, name: 'Refused shop', token: 'tok-refused', secret: 'sec-refused' };
    const yaml = 'scenarios:\n  - name: refused-upload\n    description: Never saved.\n    match:\n      order: "^refused-"\n';
    h.adapter.failing = 'ENOSPC';
    expect((await h.post('/_sandbox/merchants', merchant)).status).toBe(507);
    expect((await h.request('/_sandbox/scenarios', { method: 'PUT', headers: { 'Content-Type': 'application/yaml' }, body: yaml })).status).toBe(507);
    expect(h.sandbox.merchants.get(id)).toBeUndefined();
    expect(h.sandbox.scenarios.names()).not.toContain('refused-upload');
    const asRefused = await h.request(create, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': 'tok-refused' }, body: JSON.stringify({ ...p2pBody(), merchant: id }) });
    expect(asRefused.status).toBe(401);

    h.adapter.failing = undefined;
    expect((await h.post('/_sandbox/merchants', merchant)).status).toBe(201);
    expect(h.sandbox.merchants.get(id)?.token).toBe('tok-refused');
    expect((await h.request('/_sandbox/scenarios', { method: 'PUT', headers: { 'Content-Type': 'application/yaml' }, body: yaml })).status).toBe(200);
    expect(h.sandbox.scenarios.names()).toContain('refused-upload');
  });

  it('other write failures answer storage_error naming the folder, not "sandbox bug"', async ({ folder }) => {
    const h = await harness(folder);
    h.adapter.failing = 'EIO';
    const refused = await h.post(create, p2pBody());
    expect(refused.status).toBe(503);
    const error = await errorOf(refused);
    expect(error.code).toBe('storage_error');
    expect(error.message).toContain(h.dir);
    expect(h.sandbox.store.trades.size).toBe(0);
  });

  it('a step that fell due while writes failed runs by itself once they work again (defect 3)', async ({ folder }) => {
    const scenarios = folderIn(folder);
    writeFileSync(
      join(scenarios, 'soon.yaml'),
      'scenarios:\n  - name: soon\n    description: Confirmed 300 ms after it is created.\n    match:\n      order: "^soon-"\n    timeline:\n      - after: 300ms\n        state: confirmed\n',
    );
    const h = await harness(folder, { scenarios });
    const created = (await (await h.post(create, p2pBody({ order: nextOrder('soon') }))).json()) as { id: string };
    h.adapter.failing = 'ENOSPC';
    // The step runs when due and cannot save: the change is undone and the job stays.
    await vi.waitFor(() => expect(h.adapter.failures).toBeGreaterThan(0), { timeout: 5_000, interval: 20 });
    expect(h.sandbox.store.trades.get(created.id)?.state).toBe('created');
    expect(h.sandbox.scheduler.pending()).toHaveLength(1);
    // Space is back; no request is sent: the scheduler tries again by itself.
    h.adapter.failing = undefined;
    await vi.waitFor(() => expect(h.sandbox.store.trades.get(created.id)?.state).toBe('confirmed'), { timeout: 5_000, interval: 20 });
    expect(h.sandbox.scheduler.pending()).toEqual([]);
  });
});
