/**
 * Hostile input over a real socket (127.0.0.1, port 0): what only a real HTTP server sees —
 * chunked bodies, a Content-Length that lies about the size, a body that never finishes,
 * oversized headers, raw bytes. The sandbox answers each, keeps serving, and stores nothing.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from '../../src/server/server.js';
import { listen, type RunningServer } from '../../src/server/listen.js';
import { ADMIN_BODY_LIMIT, FORM_BODY_LIMIT, NO_BODY_LIMIT } from '../../src/http/body.js';
import { LIMITS } from '../../src/trades/requests.js';
import { DEMO, ecomBody, p2pBody, rawExchange } from '../support.js';

let sandbox: Server;
let server: RunningServer;
let port: number;

beforeAll(async () => {
  sandbox = await createServer({ inMemory: true, host: '127.0.0.1', port: 0 });
  server = await listen(sandbox);
  port = Number(new URL(server.url).port);
});
afterAll(() => server.close());

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request over node:http; `chunks` are written one by one (chunked unless Content-Length is given). */
function send(method: string, path: string, headers: Record<string, string>, chunks: Array<string | Buffer> = []): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    const write = (i: number) => {
      if (i >= chunks.length) return void req.end();
      if (req.destroyed) return;
      req.write(chunks[i]!, () => write(i + 1));
    };
    write(0);
  });
}

/**
 * Streams `head` and then up to `count` copies of `chunk` as one chunked request, writing the
 * next chunk once the last one is written, until the answer arrives or the connection closes.
 */
function streamChunks(method: string, path: string, headers: Record<string, string>, head: Buffer, chunk: Buffer, count: number): Promise<Answer & { chunksSent: number }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8'), chunksSent: sent }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    req.setTimeout(20_000, () => req.destroy(new Error('no answer within 20 s')));
    const next = () => {
      if (answered || req.destroyed) return;
      if (sent >= count) return void req.end();
      sent++;
      req.write(chunk, next);
    };
    req.write(head, next);
  });
}

/** Raw bytes over a TCP socket; resolves with everything the server answered before closing. */
const raw = (bytes: string | Buffer, closeAfterMs?: number) => rawExchange(port, bytes, closeAfterMs);

async function healthy(): Promise<void> {
  const res = await fetch(`${server.url}/_sandbox/health`, { signal: AbortSignal.timeout(5_000) });
  expect(res.status).toBe(200);
}

const JSON_AUTH = { 'Content-Type': 'application/json', 'X-Auth': DEMO.token };
const CREATE = '/api/v1/trades/deposit/create';

describe('over a real socket', () => {
  it('a 5 MB body: 413 envelope with Content-Length, and chunked', async () => {
    const before = sandbox.root.store.trades.size;
    const big = Buffer.from(JSON.stringify(p2pBody({ order: 'x'.repeat(5 * 1024 * 1024) })));
    const withLength = await send('POST', CREATE, { ...JSON_AUTH, 'Content-Length': String(big.length) }, [big]);
    expect(withLength.status).toBe(413);
    expect(JSON.parse(withLength.body)).toMatchObject({ error: { status: 413, code: 'body_too_large' } });
    const slices = Array.from({ length: 80 }, (_, i) => big.subarray(i * 64 * 1024, (i + 1) * 64 * 1024));
    const chunked = await send('POST', CREATE, JSON_AUTH, slices);
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body)).toMatchObject({ error: { status: 413, code: 'body_too_large', message: expect.stringContaining(`${LIMITS.maxBodyBytes} bytes`) } });
    expect(sandbox.root.store.trades.size).toBe(before);
    await healthy();
  });

  it('a chunked body under the limit is read like any other', async () => {
    const body = JSON.stringify(p2pBody());
    const res = await send('POST', CREATE, JSON_AUTH, [body.slice(0, 10), body.slice(10, 50), body.slice(50)]);
    expect(res.status).toBe(201);
  });

  it('a Content-Length over the limit is refused before the body is read', async () => {
    const answer = await raw(`POST ${CREATE} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Auth: ${DEMO.token}\r\nContent-Length: 104857600\r\n\r\n{"merchant":`, 1_500);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('"code":"body_too_large"');
    await healthy();
  });

  // Each request sends its headers and no body. The answer must come without the body, and the
  // connection must close (rawExchange resolves on close; 20 s is only a bound for a broken server).
  it.each([
    ['create', CREATE, LIMITS.maxBodyBytes, LIMITS.maxBodyBytes + 1],
    ['create', CREATE, LIMITS.maxBodyBytes, 100 * 1024],
    ['create', CREATE, LIMITS.maxBodyBytes, 1024 * 1024],
    ['create', CREATE, LIMITS.maxBodyBytes, 1024 * 1024 + 1],
    ['create', CREATE, LIMITS.maxBodyBytes, 10 * 1024 ** 3],
    ['build', '/api/v1/trades/deposit/build', LIMITS.maxBodyBytes, 300 * 1024],
    ['admin transition', '/_sandbox/trades/00000000-0000-4000-8000-000000000000/transition', ADMIN_BODY_LIMIT, ADMIN_BODY_LIMIT + 1],
    ['clock advance', '/_sandbox/clock/advance', ADMIN_BODY_LIMIT, 500 * 1024],
    ['merchant', '/_sandbox/merchants', ADMIN_BODY_LIMIT, 1024 * 1024],
    ['payment form', '/pay/00000000-0000-4000-8000-000000000000/pay', FORM_BODY_LIMIT, 500 * 1024],
  ])('%s (%s, limit %i): Content-Length %i with no body is answered 413 at once, and the connection closes', async (_name, path, limit, length) => {
    const before = sandbox.root.store.trades.size;
    const type = path.startsWith('/pay/') ? 'application/x-www-form-urlencoded' : 'application/json';
    const answer = await raw(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\nX-Auth: ${DEMO.token}\r\nContent-Length: ${length}\r\n\r\n`, 20_000);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(answer).toContain('"code":"body_too_large"');
    expect(answer).toContain(`larger than ${limit} bytes`);
    expect(sandbox.root.store.trades.size).toBe(before);
    await healthy();
  });

  // A chunked upload declares no length: it is counted as it arrives and cut at the limit, never
  // buffered whole (an upload of 800 MB used to be read into memory before anything was checked).
  it.each([
    ['PUT', '/w/w1/_sandbox/scenarios', 'application/yaml', '# a comment line that is repeated and repeated\n'],
    ['POST', '/w/w1/_sandbox/merchants', 'application/json', '{"name":"'],
    ['POST', '/_sandbox/clock/advance', 'application/json', '{"by":"'],
  ])('a chunked %s %s past the limit is answered 413 and the connection is cut, long before the upload ends', async (method, path, type, head) => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const total = 256; // 16 MiB, if the sandbox read it all
    const streamed = await streamChunks(method, path, { 'Content-Type': type }, Buffer.from(head), chunk, total);
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body)).toMatchObject({ error: { status: 413, code: 'body_too_large', message: expect.stringContaining(`larger than ${ADMIN_BODY_LIMIT} bytes`) } });
    expect(streamed.headers.connection).toBe('close');
    // The sandbox stopped reading at the limit: the rest of the upload was never sent.
    expect(streamed.chunksSent).toBeLessThan(total);
    expect((await fetch(`${server.url}/w/w1/_sandbox/merchants`)).status).toBe(200);
    await healthy();
  });

  it('a chunked payment form past its limit is answered 413 and cut, and the trade is unchanged', async () => {
    const created = await send('POST', '/api/v1/trades/deposit/build', JSON_AUTH, [JSON.stringify(ecomBody())]);
    expect(created.status).toBe(201);
    const id = (JSON.parse(created.body) as { id: string }).id;
    const before = structuredClone(sandbox.root.store.trades.get(id));
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const total = 256; // 16 MiB, if the sandbox read it all
    // A test card that confirms the trade, then a field no route reads.
    const head = Buffer.from('number=4242424242424242&expiry=12%2F39&cvc=123&pad=');
    const streamed = await streamChunks('POST', `/pay/${id}/pay`, { 'Content-Type': 'application/x-www-form-urlencoded' }, head, chunk, total);
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body)).toMatchObject({ error: { status: 413, code: 'body_too_large', message: expect.stringContaining(`larger than ${FORM_BODY_LIMIT} bytes`) } });
    expect(streamed.headers.connection).toBe('close');
    expect(streamed.chunksSent).toBeLessThan(total);
    expect(sandbox.root.store.trades.get(id)).toEqual(before);
    await healthy();
  });

  // A route that reads no body (a reset, a list, a removal) refuses one past NO_BODY_LIMIT before
  // it acts: a chunked body is counted as it arrives, never read to its end, and nothing happens.
  describe('a body sent to a route that takes none', () => {
    /** The trades of default and of workspace `keep`, and keep's scenario upload: what each refused request must leave. */
    async function state() {
      const workspace = (await fetch(`${server.url}/_sandbox/workspaces`).then((res) => res.json())) as { workspaces: Array<{ name: string; trades: number }> };
      const scenarios = (await fetch(`${server.url}/w/keep/_sandbox/scenarios`).then((res) => res.json())) as { scenarios: Array<{ name: string }> };
      return {
        trades: sandbox.root.store.trades.size,
        keep: workspace.workspaces.find((w) => w.name === 'keep')?.trades,
        uploaded: scenarios.scenarios.map((s) => s.name).filter((name) => name === 'kept-upload'),
      };
    }

    beforeEach(async () => {
      expect((await send('POST', CREATE, JSON_AUTH, [JSON.stringify(p2pBody())])).status).toBe(201);
      expect((await send('POST', `/w/keep${CREATE}`, JSON_AUTH, [JSON.stringify(p2pBody())])).status).toBe(201);
      const upload = 'scenarios:\n  - name: kept-upload\n    description: Stays.\n    match:\n      order: "^kept-"\n';
      expect((await send('PUT', '/w/keep/_sandbox/scenarios', { 'Content-Type': 'application/yaml' }, [upload])).status).toBe(200);
    });

    it.each([
      ['POST', '/_sandbox/reset'],
      ['POST', '/w/keep/_sandbox/reset'],
      ['DELETE', '/w/keep/_sandbox/scenarios'],
      ['GET', '/_sandbox/trades'],
      ['DELETE', '/w/keep/_sandbox'],
    ])('a chunked body to %s %s is answered 413 once it passes the bound, the connection is cut, and nothing changes', async (method, path) => {
      const before = await state();
      expect(before.trades).toBeGreaterThan(0);
      expect(before.keep).toBeGreaterThan(0);
      expect(before.uploaded).toEqual(['kept-upload']);
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const total = 256; // 16 MiB, if the sandbox read it all
      // Node's client sends a GET's or DELETE's body chunked only when told to.
      const streamed = await streamChunks(method, path, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }, Buffer.from('{"pad":"'), chunk, total);
      expect(streamed.status).toBe(413);
      expect(JSON.parse(streamed.body)).toMatchObject({
        error: { status: 413, code: 'body_too_large', message: expect.stringContaining(`${method} ${path} takes no request body`) },
      });
      expect(streamed.headers.connection).toBe('close');
      expect(streamed.chunksSent).toBeLessThan(total);
      expect(await state()).toEqual(before);
      await healthy();
    });

    it.each([
      ['POST', '/_sandbox/reset'],
      ['DELETE', '/w/keep/_sandbox/scenarios'],
      ['GET', '/_sandbox/trades'],
      ['DELETE', '/w/keep/_sandbox'],
    ])('%s %s with a Content-Length over the bound is answered 413 before the body is read, and nothing changes', async (method, path) => {
      const before = await state();
      const answer = await raw(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${1024 ** 3}\r\n\r\n{"pad":"`, 20_000);
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toMatch(/\r\nconnection: close\r\n/i);
      expect(answer).toContain('"code":"body_too_large"');
      expect(answer).toContain(`larger than ${NO_BODY_LIMIT} bytes`);
      expect(await state()).toEqual(before);
      await healthy();
    });

    it('an empty body, or a small one such as {}, is taken as before, chunked or not', async () => {
      expect((await send('GET', '/_sandbox/trades', { 'Content-Length': '2' }, ['{}'])).status).toBe(200);
      expect((await send('DELETE', '/w/keep/_sandbox/scenarios', { 'Transfer-Encoding': 'chunked' }, ['{', '}'])).status).toBe(200);
      const small = `{"pad":"${'x'.repeat(NO_BODY_LIMIT - 10)}"}`;
      expect(Buffer.byteLength(small)).toBeLessThanOrEqual(NO_BODY_LIMIT);
      const chunked = await send('POST', '/w/keep/_sandbox/reset', { 'Content-Type': 'application/json' }, [small.slice(0, 500), small.slice(500)]);
      expect(chunked.status).toBe(200);
      expect(JSON.parse(chunked.body)).toMatchObject({ status: 'reset', removed: { trades: expect.any(Number) } });
      const empty = await send('POST', '/_sandbox/reset', { 'Content-Length': '0' });
      expect(empty.status).toBe(200);
      expect(sandbox.root.store.trades.size).toBe(0);
      expect((await send('DELETE', '/w/keep/_sandbox', {}, [])).status).toBe(200);
    });

    it('a GET body sent chunked is refused whatever its size: the GET request carries no body to count', async () => {
      const res = await send('GET', '/_sandbox/trades', { 'Transfer-Encoding': 'chunked' }, ['{}']);
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'body_too_large', message: expect.stringContaining('a GET or HEAD body sent chunked') } });
      expect(res.headers.connection).toBe('close');
    });
  });

  it('a body that never finishes does not hold up other requests, and stores nothing', async () => {
    const before = sandbox.root.store.trades.size;
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(`POST ${CREATE} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Auth: ${DEMO.token}\r\nContent-Length: 1000\r\n\r\n{"merchant":"`);
    await healthy();
    const created = await send('POST', CREATE, JSON_AUTH, [JSON.stringify(p2pBody())]);
    expect(created.status).toBe(201);
    socket.destroy();
    await healthy();
    expect(sandbox.root.store.trades.size).toBe(before + 1);
  });

  it('raw bytes that are not UTF-8, and a NUL in a string', async () => {
    const body = Buffer.concat([Buffer.from(JSON.stringify(p2pBody()).replace(/}$/, ',"customer":"')), Buffer.from([0xff, 0xc0, 0x22, 0x7d])]);
    const res = await send('POST', CREATE, { ...JSON_AUTH, 'Content-Length': String(body.length) }, [body]);
    expect(res.status).toBe(422);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'invalid_json', message: expect.stringContaining('not valid UTF-8') } });
    const nul = await send('POST', CREATE, JSON_AUTH, [JSON.stringify(p2pBody({ order: 'a\u0000b' }))]);
    expect(nul.status).toBe(422);
  });

  it('headers past the server limit, and garbage instead of HTTP, are refused by the HTTP layer', async () => {
    expect(await raw(`GET /_sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 431 /);
    expect(await raw('\u0000\u0001\u0002 not http at all\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    expect(await raw(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]))).toMatch(/^(HTTP\/1\.1 400 |$)/);
    await healthy();
  });

  it('a request naming another host (DNS rebinding) is refused; loopback names are served', async () => {
    const foreign = await send('GET', '/_sandbox/trades', { Host: `rebind.example:${port}` });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toMatchObject({ error: { status: 403, code: 'host_not_allowed' } });
    expect(JSON.parse(foreign.body).error.message).toContain('DNS rebinding');
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `app.localhost:${port}`]) {
      expect((await send('GET', '/_sandbox/trades', { Host: host })).status, host).toBe(200);
    }
  });
});
