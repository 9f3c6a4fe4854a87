/**
 * The bundled create-side fault scenarios over real HTTP (a sandbox listening on 127.0.0.1):
 * `lost-answer` (sbx-lost-: saved, then the connection closed with no answer), `late-answer`
 * (sbx-late-: saved, answered late; loaded here from a copy with a short delay) and
 * `unavailable` (sbx-503-: 503 with Retry-After, nothing saved, the retry goes through). A retry
 * with the same order after a lost or late answer gets 422 duplicate_order naming the saved trade.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { it } from '../temp-folder.js';
import type { SandboxOptionsInput } from '../../src/config/options.js';
import { createServer } from '../../src/server/server.js';
import { listen, type RunningServer } from '../../src/server/listen.js';
import { verifyCallbackSignature } from '../../src/auth/signature.js';
import { startReceiver } from '../callbacks-receiver.js';
import { DEMO, nextOrder, p2pBody, rawExchange } from '../support.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(options: SandboxOptionsInput = {}): Promise<RunningServer> {
  const sandboxServer = await createServer({ inMemory: true, host: '127.0.0.1', port: 0, ...options });
  const server = await listen(sandboxServer);
  cleanups.push(() => server.close());
  return server;
}

const headers = { 'Content-Type': 'application/json', 'X-Auth': DEMO.token };
const create = (server: RunningServer, order: string) =>
  fetch(`${server.url}/api/v1/trades/deposit/create`, { method: 'POST', headers, body: JSON.stringify(p2pBody({ order })), signal: AbortSignal.timeout(30_000) });

/** A retry after a lost or late answer: 422 duplicate_order naming the saved trade, which GET then returns. */
async function retryFindsTheSavedTrade(server: RunningServer, order: string): Promise<string> {
  const retry = await create(server, order);
  expect(retry.status).toBe(422);
  const { error } = (await retry.json()) as { error: { code: string; message: string } };
  expect(error.code).toBe('duplicate_order');
  const id = /\(id ([0-9a-f-]{36})\)/.exec(error.message)?.[1];
  expect(id).toBeDefined();
  const saved = await fetch(`${server.url}/api/v1/trades/${DEMO.id}/${id}`, { headers: { 'X-Token': DEMO.token } });
  expect(saved.status).toBe(200);
  expect(await saved.json()).toMatchObject({ id, order, state: 'created' });
  return id!;
}

describe('bundled create-side faults over HTTP', () => {
  it('sbx-lost-: the trade is saved, and a raw socket sees the connection closed with no byte of an answer', async () => {
    const server = await serve();
    const port = Number(new URL(server.url).port);
    const order = nextOrder('sbx-lost-');
    const body = JSON.stringify(p2pBody({ order }));
    const request = `POST /api/v1/trades/deposit/create HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Auth: ${DEMO.token}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    expect(await rawExchange(port, request, 30_000)).toBe('');
    // A client's retry learns the trade exists; fetch itself sees a network error, never a status.
    await retryFindsTheSavedTrade(server, order);
    await expect(create(server, nextOrder('sbx-lost-'))).rejects.toThrow(/fetch failed/);
  });

  it('sbx-late-: the trade is saved at once and answered after the scenario delay; a retry meanwhile gets duplicate_order', async ({ folder }) => {
    // A copy of the bundled late-answer with a short delay, loaded instead of the bundled files.
    const bundled = readFileSync(new URL('../../scenarios/20-create-errors.yaml', import.meta.url), 'utf8');
    expect(bundled).toContain('    answer:\n      delay: 65s\n');
    writeFileSync(join(folder, 'late.yaml'), bundled.replace('      delay: 65s\n', '      delay: 3s\n'));
    const server = await serve({ bundledScenarios: false, scenarios: folder });
    const order = nextOrder('sbx-late-');
    const first = create(server, order);
    // Wait for the save (the trade is listed), then retry while the first answer is still held back.
    let listed = false;
    while (!listed) {
      const list = await fetch(`${server.url}/_sandbox/trades?order=${order}`);
      listed = ((await list.json()) as { trades: unknown[] }).trades.length > 0;
      if (!listed) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const id = await retryFindsTheSavedTrade(server, order);
    const answer = await first;
    expect(answer.status).toBe(201);
    expect(answer.headers.get('X-Sandbox-Scenario')).toBe('late-answer');
    expect(await answer.json()).toMatchObject({ id, order });
  });

  it('sbx-503-: 503 with Retry-After and nothing saved; the retry of the same order creates the trade', async () => {
    const server = await serve();
    const order = nextOrder('sbx-503-');
    const down = await create(server, order);
    expect(down.status).toBe(503);
    expect(down.headers.get('Retry-After')).toBe('2');
    expect(((await down.json()) as { error: { code: string } }).error.code).toBe('service_unavailable');
    const list = await fetch(`${server.url}/_sandbox/trades?order=${order}`);
    expect(((await list.json()) as { trades: unknown[] }).trades).toEqual([]);
    const retry = await create(server, order);
    expect(retry.status).toBe(201);
    expect(await retry.json()).toMatchObject({ order, state: 'created' });
  });

  it('sbx-race-: every callback is delivered twice at the same moment, same event id, both signed, overlapping at the receiver', async () => {
    // The receiver answers neither copy until both have arrived: were they sent one after the
    // other, the first would wait for an answer that never comes and the test would time out.
    const held: Array<() => void> = [];
    const receiver = await startReceiver(
      (_request, res) =>
        new Promise<void>((resolve) => {
          held.push(() => {
            res.end('ok');
            resolve();
          });
          if (held.length === 2) for (const answer of held) answer();
        }),
    );
    cleanups.push(() => receiver.close());
    const server = await serve({ clock: 'manual', callbackTimeout: '60s' });
    const order = nextOrder('sbx-race-');
    const created = await fetch(`${server.url}/api/v1/trades/deposit/create`, { method: 'POST', headers, body: JSON.stringify(p2pBody({ order, callback_url: `${receiver.url}/cb` })) });
    expect(created.status).toBe(201);
    expect(created.headers.get('X-Sandbox-Scenario')).toBe('overlapping-callbacks');
    const { id } = (await created.json()) as { id: string };
    await fetch(`${server.url}/_sandbox/clock/advance`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"by":"5s"}' });
    const [a, b] = await receiver.waitFor(2);
    for (const copy of [a!, b!]) {
      expect(copy.headers['x-sandbox-event-id']).toBe(`cb_${id}_1`);
      expect(copy.headers['x-sandbox-attempt']).toBe('1');
      expect(verifyCallbackSignature(DEMO.secret, Buffer.from(copy.body), copy.headers['x-signature'] as string)).toBe(true);
      expect(JSON.parse(copy.body)).toMatchObject({ id, order, state: 'confirmed' });
    }
    expect(b!.body).toBe(a!.body);
    // The log shows the delivery and its twin.
    let kinds: string[] = [];
    while (kinds.length < 2) {
      const trade = (await (await fetch(`${server.url}/_sandbox/trades/${id}`)).json()) as { callbacks: Array<{ status: string; attempts: Array<{ kind: string; status: number }> }> };
      kinds = trade.callbacks[0]?.attempts.map((attempt) => `${attempt.kind} ${attempt.status}`) ?? [];
      if (kinds.length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(kinds).toEqual(['delivery 200', 'duplicate 200']);
  });
});
