/**
 * The life of a workspace on disk, through the app: removal while requests run, the expiry
 * sweep racing live creates, refused requests that must not create a workspace.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/sandbox.js';
import type { SandboxOptionsInput } from '../src/config/options.js';
import { checkedApp, DEMO, errorOf, p2pBody } from './support.js';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function tempData(): string {
  const dir = mkdtempSync(join(tmpdir(), 'deposit-sandbox-wsl-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function start(options: SandboxOptionsInput) {
  const sandbox = await createSandbox(options);
  let closed = false;
  cleanup.push(() => (closed ? undefined : sandbox.close()));
  const app = checkedApp(sandbox);
  const create = (path: string, body: unknown = p2pBody()) => app.request(path, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token }, body: JSON.stringify(body) });
  const orders = async (name: string) => ((await (await app.request(`/w/${name}/_sandbox/trades`)).json()) as { trades: Array<{ order: string }> }).trades.map((t) => t.order).sort();
  return {
    sandbox,
    app,
    create,
    orders,
    close: async () => {
      closed = true;
      await sandbox.close();
    },
  };
}

/** A request body the test sends in two parts: the request is under way until `finish()`. */
function slowBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    stream,
    finish(text: string) {
      controller.enqueue(new TextEncoder().encode(text));
      controller.close();
    },
  };
}

describe('removing a workspace ends its work first', () => {
  it('a create still reading its body when DELETE arrives is refused, and never writes into the workspace made again under that name', async () => {
    const data = tempData();
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
