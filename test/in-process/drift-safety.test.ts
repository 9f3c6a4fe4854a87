import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DEMO, driftAgainst } from './drift-support.js';

// A target that is not the API (a login page, a proxy, a redirect, nothing at all) stops the run
// at its first such answer: nothing more is sent, no redirect is followed, and the trades it
// created before are listed.

async function withTarget(answer: (request: IncomingMessage, response: ServerResponse, count: number) => void, run: (url: string, seen: string[]) => Promise<void>): Promise<void> {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    request.resume();
    request.on('end', () => answer(request, response, seen.length));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('drift stops at an answer that is not the API', () => {
  it('a login page: stops at the first probe, having sent one request', async () => {
    await withTarget(
      (_request, response) => response.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><body>Sign in</body></html>'),
      async (url, seen) => {
        const report = await driftAgainst(url);
        expect(report.stopped).toEqual({ probe: 'create.any_bank', why: expect.stringContaining('the target answered 200 with text/html that is not JSON ("<html><body>Sign in</body></html>"...)') });
        expect(seen).toEqual(['POST /api/v1/trades/deposit/create']);
        expect(report.requests).toBe(1);
        expect(report.differences).toEqual([]);
      },
    );
  });

  it('a redirect: not followed', async () => {
    await withTarget(
      (_request, response) => response.writeHead(302, { Location: '/login' }).end(),
      async (url, seen) => {
        const report = await driftAgainst(url);
        expect(report.stopped?.why).toContain('the target answered 302 redirecting to /login; drift follows no redirect');
        expect(seen).toEqual(['POST /api/v1/trades/deposit/create']);
      },
    );
  });

  it('a proxy that gives up after two creates: the trades it made are listed', async () => {
    await withTarget(
      (request, response, count) => {
        if (count > 2) return response.writeHead(502, { 'Content-Type': 'text/plain' }).end('Bad Gateway');
        const id = randomUUID();
        response.writeHead(201, { 'Content-Type': 'application/json' }).end(
          JSON.stringify({
            id,
            order: 'o',
            merchant: DEMO.merchant,
            state: 'created',
            amount_cents: 1,
            amount_currency: 'RUB',
            rate: 92.5,
            payment_data: { url: `http://x/pay/${id}` },
            path: request.url,
          }),
        );
      },
      async (url, seen) => {
        const report = await driftAgainst(url);
        expect(report.stopped?.probe).toBe('build.ecom');
        expect(report.stopped?.why).toContain('the target answered 502 with text/plain that is not JSON ("Bad Gateway"...)');
        expect(seen).toHaveLength(3);
        expect(report.trades.map((trade) => [trade.probe, trade.type])).toEqual([
          ['create.any_bank', 'any_bank'],
          ['create.nspk', 'nspk'],
        ]);
      },
    );
  });

  it('nothing listening: says that no answer came', async () => {
    let url = '';
    await withTarget(
      () => undefined,
      async (address) => {
        url = address;
      },
    );
    const report = await driftAgainst(url);
    expect(report.stopped?.why).toMatch(/got no answer \(ECONNREFUSED\)/);
  });
});
