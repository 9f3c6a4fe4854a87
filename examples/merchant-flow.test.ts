/**
 * A merchant's integration test against deposit-sandbox, as docs/programmatic.md shows it. Copy it
 * into your project (install deposit-sandbox from its git repository or a release tarball, see
 * docs/installing.md, and vitest) and replace the small receiver below with your own app's
 * callback endpoint.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { sign, startSandbox, stringToSign, verifyCallbackSignature, type RunningSandbox, type Trade } from 'deposit-sandbox';

// The bundled demo merchant (fixtures/merchants.json).
const MERCHANT = {
  id: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51',
  token: 'sandbox-token-demo',
  secret: 'sandbox-secret-demo',
};

/** Stands in for your app: verifies X-Signature over the raw body, then records the order's state. */
async function startShop() {
  const orders = new Map<string, Trade['state']>();
  const received: Array<{ body: string; signature: string | undefined }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      received.push({ body: raw.toString('utf8'), signature: req.headers['x-signature'] as string | undefined });
      if (!verifyCallbackSignature(MERCHANT.secret, raw, req.headers['x-signature'] as string | undefined)) {
        res.writeHead(401).end('bad signature');
        return;
      }
      const trade = JSON.parse(raw.toString('utf8')) as Trade;
      orders.set(trade.order, trade.state);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    callbackUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/deposit-callback`,
    orders,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let sandbox: RunningSandbox;
let shop: Awaited<ReturnType<typeof startShop>>;

beforeAll(async () => {
  sandbox = await startSandbox(); // a free port, in memory
  shop = await startShop();
});

afterAll(async () => {
  await sandbox.close();
  await shop.close();
});

test('a P2P deposit confirmed by the provider reaches our callback endpoint, signed', async () => {
  const res = await fetch(`${sandbox.url}/api/v1/trades/deposit/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Auth': MERCHANT.token },
    body: JSON.stringify({
      merchant: MERCHANT.id,
      order: 'order-1001',
      amount_cents: 150000, // 1 500.00 RUB, in kopecks
      amount_currency: 'RUB',
      type: 'any_bank',
      callback_url: shop.callbackUrl,
    }),
  });
  expect(res.status).toBe(201);
  const trade = (await res.json()) as Trade;
  expect(trade.state).toBe('created');

  // The payer paid: force the outcome through the admin API.
  await sandbox.admin.transition(trade.id, 'confirmed');

  // Resolves once our endpoint has answered 2xx to the callback.
  const callback = await sandbox.callbacks.waitFor({ trade: trade.id, state: 'confirmed' });
  expect(callback.attempts.at(-1)?.status).toBe(200);
  expect(shop.orders.get('order-1001')).toBe('confirmed');

  // What arrived: the trade as get returns it, signed with the merchant's secret.
  const last = shop.received.at(-1)!;
  expect(verifyCallbackSignature(MERCHANT.secret, last.body, last.signature)).toBe(true);
  expect(JSON.parse(last.body)).toEqual({ ...trade, state: 'confirmed' });
});

test('an ecom deposit with a signed request, paid with a test card on the hosted page', async () => {
  const body = {
    merchant: MERCHANT.id,
    order: 'order-1002',
    amount_cents: 99900,
    amount_currency: 'RUB',
    type: 'ecom',
    callback_url: shop.callbackUrl,
  };
  // X-Auth may carry the HMAC-SHA256 of the string to sign instead of the token.
  const signature = sign(MERCHANT.secret, stringToSign('build', body));
  const res = await fetch(`${sandbox.url}/api/v1/trades/deposit/build`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Auth': signature },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  const trade = (await res.json()) as Trade;

  // The payer submits the card form of payment_data.url: 4242 4242 4242 4242 pays.
  const paid = await fetch(`${trade.payment_data.url}/pay`, {
    method: 'POST',
    body: new URLSearchParams({ number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' }),
    redirect: 'manual',
  });
  expect(paid.status).toBe(303);

  await sandbox.callbacks.waitFor({ trade: trade.id, state: 'confirmed' });
  expect(shop.orders.get('order-1002')).toBe('confirmed');
  expect((await sandbox.admin.trade(trade.id)).history.at(-1)).toMatchObject({ to: 'confirmed', cause: 'page' });
});
