import { afterEach, expect, it } from 'vitest';
import type { IntegrationReport } from '../../src/report/report-schema.js';
import { DEMO, makeSandbox, p2pBody, type TestSandbox } from '../support.js';

// A test that makes a request wrong on purpose (to check its own 401 or 422 handling) marks it
// with X-Sandbox-Deliberate: the refusal is met for the coverage, and never the merchant's mistake.

let t: TestSandbox;
afterEach(() => t.close());

const report = async () => (await (await t.app.request('/_sandbox/report')).json()) as IntegrationReport;
const row = (r: IntegrationReport, id: string) => r.coverage.find((c) => c.merchant === DEMO.id)?.rows.find((x) => x.id === id);

it('a deliberate 401, 422 and repeated order are met for the coverage, and counted as no mistake', async () => {
  t = await makeSandbox();
  const deliberate = { 'X-Sandbox-Deliberate': 'checks our 401 handling' };
  expect((await t.post('/api/v1/trades/deposit/create', p2pBody(), { 'X-Auth': 'not-the-token', ...deliberate })).status).toBe(401);
  expect((await t.post('/api/v1/trades/deposit/create', p2pBody({ amount_cents: 'ten' }), deliberate)).status).toBe(422);
  const body = p2pBody();
  expect((await t.post('/api/v1/trades/deposit/create', body)).status).toBe(201);
  expect((await t.post('/api/v1/trades/deposit/create', body, deliberate)).status).toBe(422);

  const counted = await report();
  expect(counted.total).toBe(0);
  expect(counted.merchants).toEqual([]);
  for (const id of ['create.refused_401', 'create.refused_422', 'create.duplicate_order']) expect(row(counted, id)?.status).toBe('seen');
});

it("the same requests without the header are the merchant's mistakes, as before", async () => {
  t = await makeSandbox();
  expect((await t.post('/api/v1/trades/deposit/create', p2pBody(), { 'X-Auth': 'not-the-token' })).status).toBe(401);
  const counted = await report();
  expect(counted.total).toBe(1);
  expect(row(counted, 'create.refused_401')?.status).toBe('seen');
});

it('the coverage hints point first to the ways that are not counted', async () => {
  t = await makeSandbox();
  expect((await t.post('/api/v1/trades/deposit/create', p2pBody())).status).toBe(201);
  const md = await (await t.app.request('/_sandbox/report?format=markdown')).text();
  expect(md).toContain('an order starting with sbx-unauth-, or a create with a wrong token sent with the header X-Sandbox-Deliberate (neither is counted as a mistake)');
  expect(md).not.toContain('create with a wrong token or signature');
});
