/**
 * SIGINT/SIGTERM on a real process: the wait is bounded by --shutdown-timeout even when
 * clients hold half-sent requests, the first signal says what it waits for, a second one
 * exits at once, and the store is saved in every case (read back by a sandbox started on the
 * same data folder in this process: loading a folder a stopped process left is cli.test.ts's
 * restart test). Runs the build in dist/.
 */
import { writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { folderIn, it } from './temp-folder.js';
import { killAll, outputContains, savedStatuses, startProcess, type SandboxProcess } from './sandbox-process.js';
import { DEMO } from './support.js';

afterEach(killAll);

const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});

/** A connection to the sandbox; resolves once connected. */
function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.setEncoding('latin1');
    socket.on('error', reject);
    sockets.push(socket);
  });
}

/** Writes `bytes` and resolves once the answer read so far contains `until`. */
function exchange(socket: Socket, bytes: string, until: string): Promise<string> {
  return new Promise((resolve) => {
    let answer = '';
    const onData = (chunk: string) => {
      answer += chunk;
      if (answer.includes(until)) {
        socket.off('data', onData);
        resolve(answer);
      }
    };
    socket.on('data', onData);
    socket.write(bytes);
  });
}

const closed = (socket: Socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));

const create = (url: string, order: string) =>
  fetch(`${url}/api/v1/trades/deposit/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token },
    body: JSON.stringify({ merchant: DEMO.id, order, amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank' }),
  });

/** A scenarios folder (new, inside `folder`) whose orders "held-…" wait `delay` (wall clock) before the create answers. */
function heldScenario(folder: string, delay: string): string {
  const dir = folderIn(folder);
  writeFileSync(join(dir, 'held.yaml'), `scenarios:\n  - name: held-create\n    description: The create answers after ${delay}.\n    match:\n      order: "^held-"\n    delay: ${delay}\n`);
  return dir;
}

/** Polls the health details until a create is waiting out its scenario delay (at most 200 tries). */
async function untilCreateDelayed(proc: SandboxProcess): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const health = (await (await fetch(`${proc.url}/_sandbox/health`)).json()) as { create_delays?: number };
    if (health.create_delays === 1) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the held create never started its scenario delay');
}

describe('shutdown of a real process', () => {
  it('ends within --shutdown-timeout while clients hold half-sent headers and a half-sent body, and exits 0', async ({ folder }) => {
    // The timeout from the environment, as a container would set it.
    const proc = await startProcess(['--port', '0', '--data', folder], { DEPOSIT_SANDBOX_SHUTDOWN_TIMEOUT: '1s' });
    // Half-sent headers, on a connection the server has surely accepted (it answered one request on it).
    const headers = await open(proc.port);
    await exchange(headers, 'GET /_sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', '"status":"ok"');
    headers.write('GET /_sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ');
    // Half-sent body: "100 Continue" proves the server has parsed the headers and is reading the body.
    const body = await open(proc.port);
    await exchange(body, 'POST /api/v1/trades/deposit/create HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 200\r\n\r\n', '100 Continue');
    body.write('{"merchant": "');
    // An idle keep-alive connection is closed at once.
    const idle = await open(proc.port);
    await exchange(idle, 'GET /_sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', '"status":"ok"');

    proc.child.kill('SIGTERM');
    await closed(idle);
    expect(await proc.exited).toBe(0);
    expect(proc.stdout()).toContain('SIGTERM received: no new connections; waiting for 1 request in flight and 1 connection with half-sent headers for at most 1s (--shutdown-timeout)');
    expect(proc.stdout()).toContain('the shutdown timeout (1s) ran out: closing 2 connections (1 request left unanswered) and saving the store');
    await Promise.all([closed(headers), closed(body)]);
  });

  it('on SIGINT during a slow create says what it waits for, answers that create, and keeps every acknowledged trade', async ({ folder }) => {
    const data = folderIn(folder);
    const args = ['--port', '0', '--data', data, '--scenarios', heldScenario(folder, '2s'), '--shutdown-timeout', '60s'];
    const proc = await startProcess(args);
    const first = await create(proc.url, 'before-signal-1');
    expect(first.status).toBe(201);
    const firstId = ((await first.json()) as { id: string }).id;

    const held = create(proc.url, 'held-during-signal-1');
    await untilCreateDelayed(proc);
    proc.child.kill('SIGINT');
    await outputContains(proc, 'SIGINT received');
    expect(proc.stdout()).toMatch(
      /SIGINT received: no new connections; waiting for 1 request in flight \(a scenario create delay ends in \d+(ms|s)\) for at most 1m \(--shutdown-timeout\), then saving the store and exiting\./,
    );
    expect(proc.stdout()).toContain('Press Ctrl-C again (or send another SIGINT/SIGTERM) to exit at once; the store is still saved.');

    const answer = await held;
    expect(answer.status).toBe(201);
    const heldId = ((await answer.json()) as { id: string }).id;
    expect(await proc.exited).toBe(0);

    expect(await savedStatuses(data, [firstId, heldId])).toEqual([200, 200]);
  });

  it('a second signal exits at once, still saving the store', async ({ folder }) => {
    const data = folderIn(folder);
    const proc = await startProcess(['--port', '0', '--data', data, '--scenarios', heldScenario(folder, '5m'), '--shutdown-timeout', '10m']);
    const first = await create(proc.url, 'before-signal-2');
    expect(first.status).toBe(201);
    const firstId = ((await first.json()) as { id: string }).id;

    const held = create(proc.url, 'held-during-signal-2').then(
      (res) => res.status,
      () => 'no answer',
    );
    await untilCreateDelayed(proc);
    proc.child.kill('SIGINT');
    await outputContains(proc, 'for at most 10m (--shutdown-timeout)');
    proc.child.kill('SIGINT');
    expect(await proc.exited).toBe(0);
    expect(proc.stdout()).toContain('SIGINT received again: closing every connection now (1 request left unanswered) and saving the store');
    expect(await held).toBe('no answer');

    expect(await savedStatuses(data, [firstId])).toEqual([200]);
  });

  it('an --in-memory sandbox says it exits, not that it saves a store it does not have', async () => {
    const proc = await startProcess(['--port', '0', '--in-memory']);
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    expect(proc.stdout()).toContain('SIGTERM received: exiting (--in-memory: nothing to save)');
    expect(proc.stdout()).not.toContain('saving the store');
  });
});
