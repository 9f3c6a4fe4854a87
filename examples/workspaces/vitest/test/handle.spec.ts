import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from 'vitest';
import { startSandbox } from 'deposit-sandbox';

/** A callback receiver on a free port that answers 200 to everything. */
async function startReceiver() {
  const server = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks`;
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

test('a workspace handle in one process: own merchant, own clock, in-process waiting', async () => {
  const receiver = await startReceiver();
  const sandbox = await startSandbox({ clock: 'manual' });
  try {
    const ws = sandbox.workspace('checkout-tests');
    const merchant = await ws.addMerchant({ name: 'Checkout' });
    const res = await fetch(`${ws.url}/api/v1/trades/deposit/create`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Auth': merchant.token },
      body: JSON.stringify({ merchant: merchant.id, order: 'sbx-confirm-7', amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank', callback_url: receiver.url }),
    });
    expect(res.status).toBe(201);
    const trade = (await res.json()) as { id: string };
    await ws.admin.advanceClock('10s');
    const callback = await ws.callbacks.waitFor({ state: 'confirmed' });
    expect(callback.trade).toBe(trade.id);
    // Nothing reached the workspace default (the unprefixed URLs).
    expect((await sandbox.admin.trades()).trades).toHaveLength(0);
  } finally {
    await sandbox.close();
    await receiver.close();
  }
});
