import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Acknowledgement } from '../profile/profile-schema.js';

/** One callback as it arrived: the raw body (signatures are computed over it) and its headers. */
export interface CapturedCallback {
  method: string;
  path: string;
  /** Header names lowercased; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  body: string;
}

/** A small HTTP server that keeps the callbacks it is sent. */
export interface CallbackInbox {
  /** `http://host:port`, where it listens. */
  readonly url: string;
  readonly received: readonly CapturedCallback[];
  /** Resolves true once a callback matching `predicate` has arrived (also before the call), false after `timeoutMs`. */
  waitFor(predicate: (callback: CapturedCallback) => boolean, timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** A callback body larger than this is refused (a trade's JSON is a few hundred bytes). */
const MAX_BODY_BYTES = 256 * 1024;
/** At most this many callbacks are kept: a target that retries forever fills no memory. */
const MAX_KEPT = 200;

/** What the inbox answers, so that the profile's acknowledgement rule takes the callback as delivered. */
function acknowledgement(rule: Acknowledgement): { type: string; body: string } {
  return rule === 'code-zero' ? { type: 'application/json', body: '{"code":0}' } : { type: 'text/plain', body: 'OK' };
}

/**
 * Starts an inbox for callbacks on `host:port` (port 0 picks a free one). Every POST is kept
 * and answered 200 as the acknowledgement rule asks (`OK`, or `{"code":0}` under code-zero).
 *
 * @example
 * const inbox = await startCallbackInbox({ host: '127.0.0.1', port: 0, acknowledge: '2xx' });
 * await inbox.waitFor((callback) => callback.body.includes(order), 60_000);
 * await inbox.close();
 */
export async function startCallbackInbox(options: { host: string; port: number; acknowledge: Acknowledgement }): Promise<CallbackInbox> {
  const received: CapturedCallback[] = [];
  const waiters = new Set<() => void>();
  const answer = acknowledgement(options.acknowledge);
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => {
      if (size > MAX_BODY_BYTES) {
        response.writeHead(413).end();
        return;
      }
      if (request.method === 'POST' && received.length < MAX_KEPT) {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
        received.push({ method: request.method, path: request.url ?? '/', headers, body: Buffer.concat(chunks).toString('utf8') });
        for (const wake of [...waiters]) wake();
      }
      response.writeHead(200, { 'Content-Type': answer.type }).end(answer.body);
    });
    request.on('error', () => response.destroy());
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    received,
    waitFor(predicate, timeoutMs) {
      if (received.some(predicate)) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const done = (found: boolean) => {
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const check = () => {
          if (received.some(predicate)) done(true);
        };
        const timer = setTimeout(() => done(false), timeoutMs);
        waiters.add(check);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const wake of [...waiters]) wake();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
