import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionTracker } from './connection-tracker.js';
import { limitPipelining } from './limit-pipelining.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server whose handler keeps every response for the test to answer; limits in front. */
async function holdingServer(limits: { active: number; queued: number }) {
  const held: Array<{ path: string; res: ServerResponse }> = [];
  const waiters: Array<() => void> = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    held.push({ path: req.url ?? '', res });
    for (const wake of waiters.splice(0)) wake();
  });
  limitPipelining(server, limits);
  const tracker = new ConnectionTracker(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const serverSockets: Socket[] = [];
  server.on('connection', (socket: Socket) => serverSockets.push(socket));
  const handled = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => (held.length >= count ? resolve() : waiters.push(check));
      check();
    });
  return { server, tracker, held, handled, serverSockets, port: (server.address() as AddressInfo).port };
}

const requests = (paths: string[]) => paths.map((path) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`).join('');

describe('limitPipelining', () => {
  it("hands a connection's pipelined requests to the app a few at a time, in order", async () => {
    const s = await holdingServer({ active: 2, queued: 3 });
    const client = connect(s.port, '127.0.0.1');
    client.on('data', () => undefined);
    client.write(requests(['/1', '/2', '/3', '/4']));
    await s.handled(2);
    expect(s.held.map((h) => h.path)).toEqual(['/1', '/2']);
    expect(s.tracker.open.requests).toBe(4);
    s.held[0]!.res.end('one');
    await s.handled(3);
    expect(s.held.map((h) => h.path)).toEqual(['/1', '/2', '/3']);
    client.destroy();
  });

  it('closes a connection with more requests waiting than the bound, and forgets its requests', async () => {
    const s = await holdingServer({ active: 2, queued: 3 });
    const client = connect(s.port, '127.0.0.1');
    const closed = new Promise((resolve) => client.on('close', resolve));
    client.on('error', () => undefined);
    client.resume();
    client.write(requests(['/1', '/2', '/3', '/4', '/5', '/6', '/7']));
    await closed;
    const serverSocket = s.serverSockets[0]!;
    if (!serverSocket.destroyed || s.tracker.open.connections > 0) await new Promise((resolve) => serverSocket.once('close', resolve));
    expect(s.held.map((h) => h.path)).toEqual(['/1', '/2']);
    expect(s.tracker.open).toEqual({ requests: 0, connections: 0, halfSent: 0 });
  });
});
