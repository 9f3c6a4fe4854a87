import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { CallbackSender } from '../../src/callbacks/callback-sender.js';
import { startReceiver, type Receiver } from '../callbacks-receiver.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(respond?: Receiver['respond']): Promise<Receiver> {
  const r = await startReceiver(respond);
  cleanups.push(() => r.close());
  return r;
}

function sender(maxInFlight?: number): CallbackSender {
  const s = new CallbackSender(maxInFlight);
  cleanups.push(() => s.close());
  return s;
}

const request = (url: string) => ({ url, body: '{"id":"x"}', headers: { 'X-Signature': 'abc' }, timeoutMs: 2_000 });

describe('CallbackSender', () => {
  it('calls only http and https URLs', async () => {
    const r = await receiver();
    const port = new URL(r.url).port;
    const s = sender();
    for (const url of [`ftp://127.0.0.1:${port}/cb`, 'file:///etc/passwd', 'javascript:alert(1)', `ws://127.0.0.1:${port}/cb`]) {
      const result = await s.send(request(url));
      expect(result).toMatchObject({ ok: false, status: null, response: '' });
      expect(result.error).toMatch(/only calls http and https URLs/);
    }
    expect((await s.send(request('not a url'))).error).toMatch(/is not an absolute URL; nothing was sent/);
    expect(r.received).toHaveLength(0);
  });

  it('posts the body with the given headers, JSON content type and length', async () => {
    const r = await receiver();
    const result = await sender().send(request(`${r.url}/cb`));
    expect(result).toMatchObject({ ok: true, status: 200, response: 'ok' });
    expect(r.received[0]).toMatchObject({ method: 'POST', body: '{"id":"x"}' });
    expect(r.received[0]!.headers).toMatchObject({ 'content-type': 'application/json', 'content-length': '10', 'x-signature': 'abc' });
  });

  it('keeps at most maxInFlight requests on the wire; the rest wait their turn', async () => {
    const held: ServerResponse[] = [];
    const r = await receiver((_request, res) => void held.push(res));
    const s = sender(2);
    const results = Promise.all([1, 2, 3].map(() => s.send(request(`${r.url}/cb`))));
    await r.waitFor(2);
    expect(s.load).toEqual({ running: 2, waiting: 1 });
    for (const res of held.splice(0)) res.end('ok');
    await r.waitFor(3);
    for (const res of held.splice(0)) res.end('ok');
    expect((await results).map((x) => x.ok)).toEqual([true, true, true]);
    expect(s.load).toEqual({ running: 0, waiting: 0 });
  });

  it('resolves attempts in flight as aborted when closed', async () => {
    const r = await receiver(() => undefined);
    const s = sender();
    const pending = s.send(request(`${r.url}/cb`));
    await r.waitFor(1);
    s.close();
    expect(await pending).toMatchObject({ ok: false, aborted: true });
  });
});
