/**
 * Clients that pipeline requests and never read the answers: memory stays bounded, the
 * connection is closed, and other clients are still answered. A real process, whose peak
 * resident memory is read from /proc (Linux only; elsewhere the test skips).
 */
import { existsSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { killAll, startProcess } from './sandbox-process.js';
import { DEMO } from './support.js';

afterEach(killAll);

const TOKEN = 'pipelining-admin-token';
const hasProc = existsSync('/proc/self/status');

/** Peak resident memory of a process so far, in MB (VmHWM). */
function peakMb(pid: number): number {
  const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

/**
 * Opens `count` connections that each send `kib` KiB of pipelined copies of `request` as
 * fast as the server takes them, and do not read for `holdMs`. Resolves with the sockets.
 */
async function flood(port: number, request: string, count: number, kib: number, holdMs: number): Promise<Socket[]> {
  const chunk = request.repeat(Math.ceil(16_384 / request.length));
  const sockets = Array.from({ length: count }, () => {
    const socket = connect(port, '127.0.0.1');
    socket.pause(); // not reading
    let sent = 0;
    const pump = () => {
      while (sent < kib * 1024 && !socket.destroyed) {
        sent += chunk.length;
        if (!socket.write(chunk)) {
          socket.once('drain', pump);
          return;
        }
      }
    };
    socket.on('connect', pump);
    socket.on('error', () => undefined);
    return socket;
  });
  await new Promise((resolve) => setTimeout(resolve, holdMs));
  return sockets;
}

/** Reads (and drops) what the server sent; resolves once it has closed the connection. */
function drainUntilClosed(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve();
    socket.once('close', () => resolve());
    socket.on('data', () => undefined);
    socket.resume();
  });
}

describe.skipIf(!hasProc)('pipelining clients that never read', () => {
  it('cannot grow the memory without bound; the connection is closed and others are answered', async () => {
    const proc = await startProcess(['--port', '0', '--in-memory', '--admin-token', TOKEN]);
    const headers = { 'Content-Type': 'application/json', 'X-Auth': DEMO.token };
    for (let i = 0; i < 200; i += 20) {
      await Promise.all(
        Array.from({ length: 20 }, (_, k) =>
          fetch(`${proc.url}/api/v1/trades/deposit/create`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ merchant: DEMO.id, order: `pipelined-${i + k}`, amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank', callback_url: 'http://127.0.0.1:9/cb' }),
          }).then((res) => expect(res.status).toBe(201)),
        ),
      );
    }
    const before = peakMb(proc.child.pid!);

    // The admin list of trades with the token, and the public OpenAPI document without it.
    const list = `GET /_sandbox/trades HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`;
    const openapi = 'GET /openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
    const sockets = (await Promise.all([flood(proc.port, list, 8, 2048, 4_000), flood(proc.port, openapi, 4, 2048, 4_000)])).flat();

    const grown = peakMb(proc.child.pid!) - before;
    expect(grown, `peak RSS grew by ${grown.toFixed(0)} MB`).toBeLessThan(100);
    // Each flooding connection was closed by the server: reading now finds its end.
    await Promise.all(sockets.map(drainUntilClosed));
    const health = await fetch(`${proc.url}/_sandbox/health`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(health.status).toBe(200);
  });
});
