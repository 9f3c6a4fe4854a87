import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a test receiver got. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Respond = (request: Received, res: ServerResponse, req: IncomingMessage) => void | Promise<void>;

export interface Receiver {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  /** Every request, in arrival order. */
  received: Received[];
  /** How the next requests are answered (default: 200 "ok"). */
  respond: Respond;
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A callback receiver on 127.0.0.1, a free port; closes every connection on close(). */
export async function startReceiver(respond?: Respond): Promise<Receiver> {
  const waiters: Array<{ count: number; resolve: (all: Received[]) => void }> = [];
  const receiver: Receiver = {
    url: '',
    received: [],
    respond: respond ?? ((_request, res) => void res.end('ok')),
    waitFor(count) {
      if (receiver.received.length >= count) return Promise.resolve(receiver.received);
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      receiver.received.push(request);
      for (const waiter of waiters.filter((w) => receiver.received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(receiver.received);
      }
      void Promise.resolve(receiver.respond(request, res, req)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

/**
 * A port on 127.0.0.1 where nothing listens, for a refused connection: 4. It is below the
 * ephemeral range, so no server a test starts on port 0 beside this one can be given it while a
 * test counts on the refusal (a port freed a moment ago can be), and fetch does not refuse it
 * before connecting, as it does the "bad ports" 1, 7, 9, ...
 */
export const CLOSED_PORT = 4;

/** A port on 127.0.0.1 that was free a moment ago, for a server a test starts on it later. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
