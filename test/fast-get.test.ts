/**
 * The fast GET path (src/api/fast-get.ts) answers the plain successful poll itself and leaves
 * every other request to the app. Two checks over real sockets: which requests it takes, and
 * that a server with it answers every request byte for byte as a server without it does.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastGet } from '../src/api/fast-get.js';
import { sign, stringToSign } from '../src/auth/signature.js';
import { createSandbox, type Sandbox } from '../src/sandbox.js';
import { listen, type RunningServer } from '../src/server.js';
import { createTrade } from '../src/trades/service.js';
import { DEMO, SECOND, nextOrder, rawExchange } from './support.js';

let sandbox: Sandbox;
let withFast: RunningServer;
let withoutFast: RunningServer;
let probe: Server;
let probePort: number;
let id: string;
let secondId: string;

/** Raw bytes over TCP; resolves with the whole answer (the request asks to close). */
const exchange = (port: number, request: string) => rawExchange(port, request, 5_000);

const portOf = (server: RunningServer) => Number(new URL(server.url).port);

/** A GET (or `method`) request with the demo token unless `headers` replace it. */
function get(path: string, headers: Record<string, string> = { 'X-Token': DEMO.token }, method = 'GET', body = ''): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), 'Connection: close'];
  if (body) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

beforeAll(async () => {
  sandbox = await createSandbox({ inMemory: true, host: '127.0.0.1', port: 0, auth: 'either', publicUrl: 'http://127.0.0.1:4242' });
  const base = { amount_cents: 31250, amount_currency: 'RUB' as const, type: 'any_bank' as const };
  id = createTrade(sandbox, { merchant: DEMO.id, order: nextOrder('fast'), ...base }).id;
  secondId = createTrade(sandbox, { merchant: SECOND.id, order: nextOrder('fast'), ...base }).id;
  withFast = await listen(sandbox);
  withoutFast = await listen(sandbox, { fastGet: false });
  // The fast path alone: 200 when it answered, 599 when it declined.
  const front = fastGet(sandbox);
  probe = createServer((incoming, outgoing) => {
    if (front(incoming, outgoing)) return;
    outgoing.writeHead(599).end('declined');
  });
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  probePort = (probe.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => probe.close(resolve));
  await withFast.close();
  await withoutFast.close().catch(() => undefined);
});

const path = () => `/api/v1/trades/${DEMO.id}/${id}`;
const signed = () => sign(DEMO.secret, stringToSign('get', { merchant: DEMO.id, uuid: id }));

/** Each request and whether the fast path should answer it itself. */
const cases: Array<[name: string, request: () => string, fast: boolean]> = [
  ['the plain poll with the token', () => get(path()), true],
  ['the plain poll with a signature', () => get(path(), { 'X-Token': signed() }), true],
  ['the trade id in capitals', () => get(`/api/v1/trades/${DEMO.id}/${id.toUpperCase()}`), true],
  ['a query string', () => get(`${path()}?x=1`), false],
  ['a percent-encoded path', () => get(`/api/v1/trades/${DEMO.id}/${id.replace('-', '%2D')}`), false],
  ['a trailing slash', () => get(`${path()}/`), false],
  ['an Origin header (CORS)', () => get(path(), { 'X-Token': DEMO.token, Origin: 'http://localhost:3000' }), false],
  ['a body on a GET', () => get(path(), { 'X-Token': DEMO.token, 'Content-Type': 'application/json' }, 'GET', '{}'), false],
  ['HEAD', () => get(path(), { 'X-Token': DEMO.token }, 'HEAD'), false],
  ['no X-Token', () => get(path(), {}), false],
  ['a wrong token', () => get(path(), { 'X-Token': 'nope' }), false],
  ["the other merchant's token", () => get(path(), { 'X-Token': SECOND.token }), false],
  ["another merchant's trade", () => get(`/api/v1/trades/${DEMO.id}/${secondId}`), false],
  ['an unknown trade', () => get(`/api/v1/trades/${DEMO.id}/00000000-0000-4000-8000-000000000000`), false],
  ['an unknown merchant', () => get(`/api/v1/trades/00000000-0000-4000-8000-000000000000/${id}`), false],
  ['not a UUID', () => get(`/api/v1/trades/${DEMO.id}/order-1`), false],
  ['GET on the create endpoint', () => get('/api/v1/trades/deposit/create'), false],
  ['a Host that is not loopback', () => get(path()).replace('Host: 127.0.0.1', 'Host: evil.example'), false],
];

describe('fast GET path', () => {
  it.each(cases)('%s: taken by the fast path = %s', async (_name, request, fast) => {
    const answer = await exchange(probePort, request());
    expect(answer.slice(0, 12)).toBe(fast ? 'HTTP/1.1 200' : 'HTTP/1.1 599');
  });

  it.each(cases)('%s: answered byte for byte as without it', async (_name, request) => {
    const withoutDate = (text: string) => text.replace(/^Date: .*\r\n/m, '');
    const [a, b] = await Promise.all([exchange(portOf(withFast), request()), exchange(portOf(withoutFast), request())]);
    expect(a).toMatch(/^HTTP\/1\.1 \d{3} /);
    expect(withoutDate(a)).toBe(withoutDate(b));
  });

  it('answers the stored trade as the document gives it', async () => {
    const answer = await exchange(portOf(withFast), get(path()));
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\nContent-Type: application\/json\r\n/);
    const trade = JSON.parse(body ?? '') as Record<string, unknown>;
    expect(Object.keys(trade)).toEqual(['id', 'order', 'merchant', 'state', 'amount_cents', 'amount_currency', 'rate', 'payment_data']);
    expect(trade['id']).toBe(id);
    expect(trade['payment_data']).toMatchObject({ url: `http://127.0.0.1:4242/pay/${id}` });
  });

  it('generated GET requests: answered the same with and without it (fast-check, fixed seed)', async () => {
    const ids = () => [id, id.toUpperCase(), secondId, '00000000-0000-4000-8000-000000000000', 'order-1', ''];
    /** Mostly the plain value (so the fast path is reached often), sometimes one of the others. */
    const mostly = <T,>(plain: T, ...others: T[]) => fc.oneof({ arbitrary: fc.constant(plain), weight: 5 }, { arbitrary: fc.constantFrom(...others), weight: 1 });
    const request = fc.record({
      merchant: mostly<string>(DEMO.id, SECOND.id, 'deposit', DEMO.id.toUpperCase(), '%36f1c', 'x'),
      trade: mostly(0, 1, 2, 3, 4, 5),
      suffix: mostly('', '?a=1', '/', '#x', '%20'),
      token: mostly<string | undefined>(DEMO.token, SECOND.token, undefined, '', ' sandbox-token-demo ', 'nope', 'a'.repeat(64)),
      signed: fc.boolean(),
      origin: mostly<string | undefined>(undefined, 'http://127.0.0.1:4242', 'https://evil.example'),
      host: mostly('127.0.0.1', 'localhost:4242', '[::1]', 'evil.example', 'LOCALHOST'),
      method: mostly('GET', 'HEAD', 'POST'),
    });
    let fast = 0;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const uuid = ids()[r.trade] ?? '';
        const headers: Record<string, string> = {};
        if (r.signed) headers['X-Token'] = sign(DEMO.secret, stringToSign('get', { merchant: r.merchant, uuid }));
        else if (r.token !== undefined) headers['X-Token'] = r.token;
        if (r.origin !== undefined) headers['Origin'] = r.origin;
        const text = get(`/api/v1/trades/${r.merchant}/${uuid}${r.suffix}`, headers, r.method).replace('Host: 127.0.0.1', `Host: ${r.host}`);
        const withoutDate = (answer: string) => answer.replace(/^Date: .*\r\n/m, '');
        const [a, b, c] = await Promise.all([exchange(portOf(withFast), text), exchange(portOf(withoutFast), text), exchange(probePort, text)]);
        if (c.startsWith('HTTP/1.1 200')) fast++;
        expect(a).toMatch(/^HTTP\/1\.1 \d{3} /);
        expect(withoutDate(a)).toBe(withoutDate(b));
      }),
      { seed: 20261123, numRuns: 300 },
    );
    expect(fast).toBeGreaterThan(20); // the generator reaches the fast path, not only the app
  });
});
