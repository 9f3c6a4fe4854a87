import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SandboxOptionsInput } from '../../src/config/options.js';
import type { Sandbox } from '../../src/sandbox.js';
import { createServer as createSandboxServer } from '../../src/server/server.js';
import { listen } from '../../src/server/listen.js';
import { DEMO, ecomBody, p2pBody } from '../support.js';

export interface ServedSandbox {
  url: string;
  sandbox: Sandbox;
  /** Creates a trade over HTTP as the demo merchant; returns the provider's answer. */
  create(body?: Record<string, unknown>, endpoint?: 'create' | 'build'): Promise<{ id: string; order: string; payment_data: { url: string } }>;
  close(): Promise<void>;
}

/** A sandbox served over real HTTP on 127.0.0.1 (a free port), in memory, with a manual clock. */
export async function serveSandbox(options: SandboxOptionsInput = {}): Promise<ServedSandbox> {
  const deposit = await createSandboxServer({ inMemory: true, host: '127.0.0.1', port: 0, clock: 'manual', ...options });
  const server = await listen(deposit);
  return {
    url: server.url,
    sandbox: deposit.root,
    async create(body = {}, endpoint = 'create') {
      const res = await fetch(`${server.url}/api/v1/trades/deposit/${endpoint}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token },
        body: JSON.stringify(endpoint === 'create' ? p2pBody(body) : ecomBody(body)),
        signal: AbortSignal.timeout(60_000),
      });
      if (res.status !== 201) throw new Error(`creating a trade answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as { id: string; order: string; payment_data: { url: string } };
    },
    close: () => server.close(),
  };
}

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Shop {
  url: string;
  received: Received[];
  /** Resolves with the first request (already received or to come) that matches; rejects after `ms`. */
  waitFor(match: (request: Received) => boolean, ms?: number): Promise<Received>;
  close(): Promise<void>;
}

/**
 * The merchant's side on 127.0.0.1: answers GET with a small "back at the shop" page (the
 * return_url) and POST with 200 and `callbackAnswer` (the callback receiver), and records
 * every request.
 */
export async function startShop(options: { callbackAnswer?: string } = {}): Promise<Shop> {
  const received: Received[] = [];
  const waiters = new Set<{ match: (request: Received) => boolean; resolve: (request: Received) => void }>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      for (const waiter of waiters) {
        if (waiter.match(request)) {
          waiters.delete(waiter);
          waiter.resolve(request);
        }
      }
      if (req.method === 'POST') {
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end(options.callbackAnswer ?? 'ok');
      } else {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Shop</title><link rel="icon" href="data:,"><h1 data-testid="shop">Back at the shop</h1>');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    waitFor(match, ms = 60_000) {
      const found = received.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = {
          match,
          resolve: (request: Received) => {
            clearTimeout(timer);
            resolve(request);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`the shop received no matching request within ${ms} ms; it received: ${JSON.stringify(received.map((r) => `${r.method} ${r.path}`))}`));
        }, ms);
        waiters.add(waiter);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
