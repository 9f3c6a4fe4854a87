import { beforeEach, expect, inject, test } from 'vitest';

// The same workspace per worker as deposit.spec.ts: files that run at the same time are in different workspaces.
const base = `${inject('sandboxUrl')}/w/worker-${process.env.VITEST_POOL_ID}`;
const DEMO = { merchant: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51', token: 'sandbox-token-demo' };

beforeEach(async () => {
  expect((await fetch(`${base}/_sandbox/reset`, { method: 'POST' })).status).toBe(200);
});

test('a canceled trade', async () => {
  const res = await fetch(`${base}/api/v1/trades/deposit/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token },
    body: JSON.stringify({ merchant: DEMO.merchant, order: 'sbx-cancel-1', amount_cents: 50000, amount_currency: 'RUB', type: 'any_bank' }),
  });
  expect(res.status).toBe(201);
  const trade = (await res.json()) as { id: string };

  // The bundled scenario "cancel" (orders starting with sbx-cancel-) gives up 5 s after the create.
  const advance = await fetch(`${base}/_sandbox/clock/advance`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"by":"10s"}' });
  expect(advance.status).toBe(200);

  const detail = (await (await fetch(`${base}/_sandbox/trades/${trade.id}`)).json()) as { trade: { state: string } };
  expect(detail.trade.state).toBe('canceled');
  // Only this worker's trade is in its workspace, whatever the other workers do meanwhile.
  const listed = (await (await fetch(`${base}/_sandbox/trades`)).json()) as { trades: unknown[] };
  expect(listed.trades).toHaveLength(1);
});
