import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from '../app.js';
import { ConnectionTracker, type OpenWork } from '../connections/connection-tracker.js';
import { limitPipelining } from '../connections/limit-pipelining.js';
import { formatUrl } from './format-url.js';
import type { Server } from './server.js';

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

/**
 * Serves a server over HTTP on its --host and --port (0 picks a free port). Once the address
 * is known it sets `publicUrl` (unless --public-url gave one) and starts the server
 * (`server.start()`), so overdue jobs build their URLs from the real address; it resolves
 * after those jobs have run. A request that arrives meanwhile waits for them.
 */
export function listen(server: Server): Promise<RunningServer> {
  const app = createApp(server);
  const { host, port } = server.options;
  return new Promise((resolve, reject) => {
    // Until the server has run the jobs that fell due while it was stopped, a request waits
    // for them, so it sees the store they leave (a flag check here, not a middleware on every request).
    const fetch: typeof app.fetch = (request, env) => (server.started ? app.fetch(request, env) : server.start().then(() => app.fetch(request, env)));
    const http = serve({ fetch, port, hostname: host }, (info: AddressInfo) => {
      http.off('error', reject);
      const url = formatUrl(host, info.port);
      server.dataFolder?.listening(url);
      if (!server.options.publicUrl) {
        const wildcard = host === '0.0.0.0' || host === '::';
        server.publicUrl = formatUrl(wildcard ? '127.0.0.1' : host, info.port);
      }
      let closing: Promise<void> | undefined;
      const close = (closeOptions: CloseOptions = {}) => {
        closing ??= connections.close(server.options.shutdownTimeout, closeOptions.onTimeout).then(() => server.close());
        return closing;
      };
      server.start().then(
        () => resolve({ url, server: http, connections, close }),
        (error: unknown) => void close().finally(() => reject(error)),
      );
    });
    http.once('error', reject);
    limitPipelining(http as HttpServer);
    const connections = new ConnectionTracker(http as HttpServer);
  });
}
