import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './app.js';
import type { Sandbox } from './sandbox.js';

export interface RunningServer {
  /** The address the sandbox listens on, e.g. http://127.0.0.1:4242 */
  url: string;
  server: ServerType;
  /** Stops accepting, lets in-flight requests finish, flushes the store. */
  close(): Promise<void>;
}

export function formatUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Serves a sandbox over HTTP on its --host and --port (0 picks a free port). */
export function listen(sandbox: Sandbox): Promise<RunningServer> {
  const app = createApp(sandbox);
  const { host, port } = sandbox.options;
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: host }, (info: AddressInfo) => {
      server.off('error', reject);
      const url = formatUrl(host, info.port);
      if (!sandbox.options.publicUrl) {
        const wildcard = host === '0.0.0.0' || host === '::';
        sandbox.publicUrl = formatUrl(wildcard ? '127.0.0.1' : host, info.port);
      }
      let closing: Promise<void> | undefined;
      resolve({
        url,
        server,
        close() {
          closing ??= new Promise<void>((done) => {
            server.close(() => done());
            if ('closeIdleConnections' in server) server.closeIdleConnections();
          }).then(() => sandbox.close());
          return closing;
        },
      });
    });
    server.once('error', reject);
  });
}
