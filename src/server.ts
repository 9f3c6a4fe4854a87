import { createServer, type IncomingMessage, type Server, type RequestListener, type ServerOptions, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { fastGet } from './api/fast-get.js';
import { createApp } from './app.js';
import { ConnectionTracker, type OpenWork } from './connections/connection-tracker.js';
import { limitPipelining } from './connections/limit-pipelining.js';
import type { Sandbox } from './sandbox.js';

export interface RunningServer {
  /** The address the sandbox listens on, e.g. http://127.0.0.1:4242 */
  url: string;
  server: ServerType;
  /** Open connections and unanswered requests; closes them in bounded time. */
  connections: ConnectionTracker;
  /**
   * Stops accepting, lets requests in flight finish for at most --shutdown-timeout (then
   * closes every connection, half-sent requests included), and flushes the store.
   */
  close(options?: CloseOptions): Promise<void>;
}

export interface CloseOptions {
  /** Called if the shutdown timeout ran out with connections still open. */
  onTimeout?: (left: OpenWork) => void;
}

export function formatUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export interface ListenOptions {
  /**
   * Answer the plain successful GET of a trade without the framework (src/api/fast-get.ts).
   * On by default; off only to compare the two answers in tests.
   */
  fastGet?: boolean;
}

/** Serves a sandbox over HTTP on its --host and --port (0 picks a free port). */
export function listen(sandbox: Sandbox, options: ListenOptions = {}): Promise<RunningServer> {
  const app = createApp(sandbox);
  const { host, port } = sandbox.options;
  const front = options.fastGet === false ? undefined : fastGet(sandbox);
  return new Promise((resolve, reject) => {
    const makeServer = bufferingServer(front);
    const server = serve({ fetch: app.fetch, port, hostname: host, createServer: makeServer as typeof createServer }, (info: AddressInfo) => {
      server.off('error', reject);
      const url = formatUrl(host, info.port);
      sandbox.dataFolder?.listening(url);
      if (!sandbox.options.publicUrl) {
        const wildcard = host === '0.0.0.0' || host === '::';
        sandbox.publicUrl = formatUrl(wildcard ? '127.0.0.1' : host, info.port);
      }
      let closing: Promise<void> | undefined;
      resolve({
        url,
        server,
        connections,
        close(closeOptions = {}) {
          closing ??= connections.close(sandbox.options.shutdownTimeout, closeOptions.onTimeout).then(() => sandbox.close());
          return closing;
        },
      });
    });
    server.once('error', reject);
    limitPipelining(server as Server);
    const connections = new ConnectionTracker(server as Server);
  });
}

/** Bodies up to this size are read whole before the app sees the request. */
const BUFFER_LIMIT = 1024 * 1024;

/** Answers a request itself and returns true, or returns false having written nothing. */
type FrontHandler = (incoming: IncomingMessage, outgoing: ServerResponse) => boolean;

/**
 * An http.Server whose requests arrive with small bodies already read, as `rawBody`,
 * which @hono/node-server then hands to the app directly instead of wrapping the socket
 * in a web stream (several times faster for small JSON bodies). Larger or chunked bodies
 * are streamed as before. `front`, when given, sees each request first (the fast GET).
 */
function bufferingServer(front: FrontHandler | undefined) {
  return (options: ServerOptions, listener: RequestListener): ReturnType<typeof createServer> =>
    createServer(options, (incoming, outgoing) => {
      if (front !== undefined && answered(front, incoming, outgoing)) return;
      const length = incoming.headers['content-length'];
      if (length === undefined || length === '0' || incoming.headers['transfer-encoding'] !== undefined || !(Number(length) <= BUFFER_LIMIT)) {
        listener(incoming, outgoing);
        return;
      }
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.once('end', () => {
        (incoming as IncomingMessage & { rawBody?: Buffer }).rawBody = chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks);
        listener(incoming, outgoing);
      });
    });
}

/** Runs the front handler; a failure it did not expect is logged and the app answers instead. */
function answered(front: FrontHandler, incoming: IncomingMessage, outgoing: ServerResponse): boolean {
  try {
    return front(incoming, outgoing);
  } catch (error) {
    console.error('deposit-sandbox: the fast GET path failed; the app answers instead:', error);
    if (!outgoing.headersSent) return false;
    outgoing.destroy();
    return true;
  }
}
