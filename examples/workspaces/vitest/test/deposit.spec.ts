import { beforeEach, expect, inject, test } from 'vitest';

// One workspace per worker: VITEST_POOL_ID is 1, 2, ... (one per thread running at once).
const base = `${inject('sandboxUrl')}/w/worker-${process.env.VITEST_POOL_ID}`;
const DEMO = { merchant: '6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51', token: 'sandbox-token-demo' };

// A worker runs file after file: each test starts from an empty workspace (the others are untouched).
beforeEach(async () => {
  expect((await fetch(`${base}/_sandbox/reset`, { method: 'POST' })).status).toBe(200);
});

test('a confirmed trade', async () => {
  const res = await fetch(`${base}/api/v1/trades/deposit/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token },
    body: JSON.stringify({ merchant: DEMO.merchant, order: 'sbx-confirm-1', amount_cents: 31250, amount_currency: 'RUB', type: 'nspk' }),
  });
  expect(res.status).toBe(201);
  const trade = (await res.json()) as { id: string; state: string; payment_data: { url: string } };
  expect(trade.state).toBe('created');
  expect(trade.payment_data.url.startsWith(`${base}/pay/`)).toBe(true);

  // The bundled scenario "confirm" (orders starting with sbx-confirm-) pays 5 s after the create.
  const advance = await fetch(`${base}/_sandbox/clock/advance`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"by":"10s"}' });
  expect(advance.status).toBe(200);

  const detail = (await (await fetch(`${base}/_sandbox/trades/${trade.id}`)).json()) as { trade: { state: string } };
  expect(detail.trade.state).toBe('confirmed');
  // Every worker may use order "sbx-confirm-1" and advance its clock: the workspaces do not meet.
  const listed = (await (await fetch(`${base}/_sandbox/trades`)).json()) as { trades: unknown[] };
  expect(listed.trades).toHaveLength(1);
});
