import { once } from 'node:events';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallbackEvent } from '../../src/store/callback-records.js';
import type { Job } from '../../src/store/jobs.js';
import type { SandboxOptionsInput } from '../../src/config/options.js';
import { CLOSED_PORT, startReceiver, type Receiver } from '../callbacks-receiver.js';
import { makeSandbox, p2pBody, type TestSandbox } from '../support.js';

/**
 * Receivers that misbehave: each attempt ends with a clear log entry, the event stays
 * pending with its retry scheduled 1 s later, and the sandbox never waits past the timeout.
 */
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(respond: Receiver['respond']): Promise<Receiver> {
  const r = await startReceiver(respond);
  cleanups.push(() => r.close());
  return r;
}

/** Sends one callback to `url` with a manual clock and returns its event and pending jobs after the first attempt. */
async function firstAttempt(url: string, options: SandboxOptionsInput = {}): Promise<{ event: CallbackEvent; pending: Job[]; t: TestSandbox }> {
  const t = await makeSandbox({ clock: 'manual', ...options });
  cleanups.push(() => t.close());
  const created = await t.post('/api/v1/trades/deposit/create', p2pBody({ callback_url: url }));
  const { id } = (await created.json()) as { id: string };
  const moved = await t.app.request(`/_sandbox/trades/${id}/transition`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ state: 'confirmed' }),
  });
  expect(moved.status).toBe(200);
  await t.sandbox.scheduler.advance(0);
  const detail = (await (await t.get(`/_sandbox/trades/${id}`)).json()) as { callbacks: CallbackEvent[]; pending: Job[] };
  expect(detail.callbacks).toHaveLength(1);
  return { event: detail.callbacks[0]!, pending: detail.pending, t };
}

function expectRetryScheduled({ event, pending, t }: { event: CallbackEvent; pending: Job[]; t: TestSandbox }): void {
  expect(event.status).toBe('pending');
  expect(pending).toEqual([expect.objectContaining({ kind: 'callback', due: t.sandbox.clock.now() + 1_000, data: { event: event.id, attempt: 2 } })]);
}

describe('receivers that misbehave', () => {
  it('gives up on a receiver that hangs past the callback timeout and closes the connection', async () => {
    let closed!: Promise<unknown>;
    const r = await receiver((_request, res) => {
      closed = once(res, 'close');
    });
    const result = await firstAttempt(`${r.url}/cb`, { callbackTimeout: '200ms' });
    await closed; // the sandbox dropped the connection
    expect(result.event.attempts[0]).toMatchObject({ attempt: 1, status: null, response: '' });
    expect(result.event.attempts[0]!.error).toMatch(/No answer within 200ms \(the callback timeout/);
    expect(result.event.attempts[0]!.duration_ms).toBeGreaterThanOrEqual(150);
    expectRetryScheduled(result);
  });

  it('does not count a 2xx whose body never finishes within the timeout', async () => {
    const r = await receiver((_request, res) => {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('partial');
    });
    const result = await firstAttempt(`${r.url}/cb`, { callbackTimeout: '200ms' });
    expect(result.event.attempts[0]).toMatchObject({ status: 200 });
    expect(result.event.attempts[0]!.error).toMatch(/answered 200 but did not finish the answer within 200ms/);
    expectRetryScheduled(result);
  });

  it('logs a refused connection', async () => {
    const port = CLOSED_PORT;
    const result = await firstAttempt(`http://127.0.0.1:${port}/cb`);
    expect(result.event.attempts[0]).toMatchObject({ status: null, response: '' });
    expect(result.event.attempts[0]!.error).toMatch(new RegExp(`Connection refused by 127\\.0\\.0\\.1:${port}: nothing is listening`));
    expectRetryScheduled(result);
  });

  it('does not follow a redirect, and says where it pointed', async () => {
    const r = await receiver((request, res) => {
      if (request.path === '/cb') res.writeHead(302, { Location: '/elsewhere' }).end();
      else res.end('ok');
    });
    const result = await firstAttempt(`${r.url}/cb`);
    expect(r.received.map((q) => q.path)).toEqual(['/cb']);
    expect(result.event.attempts[0]).toMatchObject({ status: 302 });
    expect(result.event.attempts[0]!.error).toMatch(/redirected \(302\) to "\/elsewhere"\. Redirects are not followed/);
    expectRetryScheduled(result);
  });

  it('reads only the first 1 KiB of an endless 2xx answer, then drops the connection', async () => {
    const r = await receiver((_request, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      const chunk = 'x'.repeat(64 * 1024);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    // If the sandbox kept reading, this attempt would end at the timeout and fail.
    const { event } = await firstAttempt(`${r.url}/cb`, { callbackTimeout: '3s' });
    expect(event.status).toBe('delivered');
    expect(event.attempts[0]!.response).toBe('x'.repeat(1024));
    expect(event.attempts[0]!.error).toBeUndefined();
  });

  it('keeps 1 KiB of a huge error answer', async () => {
    const r = await receiver((_request, res) => {
      res.statusCode = 500;
      res.end('e'.repeat(5 * 1024 * 1024));
    });
    const result = await firstAttempt(`${r.url}/cb`);
    expect(result.event.attempts[0]!.response).toHaveLength(1024);
    expect(result.event.attempts[0]).toMatchObject({ status: 500 });
    expectRetryScheduled(result);
  });

  it('logs a connection reset in the middle of the answer', async () => {
    const r = await receiver((_request, res, req) => {
      res.writeHead(200, { 'Content-Length': '1000' });
      res.write('half an answer', () => req.socket.destroy());
    });
    const result = await firstAttempt(`${r.url}/cb`);
    expect(result.event.attempts[0]).toMatchObject({ status: 200 });
    expect(result.event.attempts[0]!.error).toMatch(/closed or reset in the middle of the answer/);
    expectRetryScheduled(result);
  });

  it('logs a receiver that closes the connection without answering', async () => {
    const r = await receiver((_request, _res, req) => void req.socket.destroy());
    const result = await firstAttempt(`${r.url}/cb`);
    expect(result.event.attempts[0]).toMatchObject({ status: null });
    expect(result.event.attempts[0]!.error).toMatch(/closed the connection without answering|reset the connection/);
    expectRetryScheduled(result);
  });

  it('logs an answer that is not HTTP', async () => {
    const sockets = new Set<Socket>();
    const server = createTcpServer((socket) => {
      sockets.add(socket);
      socket.once('data', () => socket.end('this is not http\r\n\r\n'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    });
    const result = await firstAttempt(`http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`);
    expect(result.event.attempts[0]).toMatchObject({ status: null });
    expect(result.event.attempts[0]!.error).toMatch(/is not valid HTTP \(HPE_/);
    expectRetryScheduled(result);
  });
});
