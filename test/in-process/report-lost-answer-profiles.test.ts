/**
 * Row create.lost_answer under the provider profiles, through the app: the recovery
 * docs/surviving-failures.md teaches (retry the same order; when the 422 duplicate_order names no
 * trade, as under `strict`, create a new order for the payer) is handled under every profile, and
 * a new order before any retry is wrong under every profile. The same requests give the same
 * report under `sandbox` and `strict`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { IntegrationReport } from '../../src/report/report-schema.js';
import { DEMO, errorOf, makeSandbox, p2pBody, type TestSandbox } from '../support.js';

const open: TestSandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

async function sandbox(profile: string): Promise<TestSandbox> {
  const t = await makeSandbox({ profile, clock: 'manual', seed: 7 });
  open.push(t);
  return t;
}

async function report(t: TestSandbox): Promise<IntegrationReport> {
  const res = await t.app.request('/_sandbox/report');
  expect(res.status).toBe(200);
  return (await res.json()) as IntegrationReport;
}

const lostRow = async (t: TestSandbox) => (await report(t)).coverage.find((m) => m.merchant === DEMO.id)?.rows.find((r) => r.id === 'create.lost_answer');
const create = (t: TestSandbox, order: string) => t.post('/api/v1/trades/deposit/create', p2pBody({ order, customer: 'payer-1' }));

describe.each(['sandbox', 'strict'])('create.lost_answer under the %s profile', (profile) => {
  it('retried with the same order (422 duplicate_order), then a new order for the payer: handled, no mistake', async () => {
    const t = await sandbox(profile);
    expect((await create(t, 'sbx-lost-p1')).status).toBe(0); // saved, no answer (app.request(): a network error)
    const id = t.sandbox.store.trades.findUnique(DEMO.id, 'sbx-lost-p1')?.id;
    const retry = await create(t, 'sbx-lost-p1');
    expect(retry.status).toBe(422);
    const error = await errorOf(retry);
    expect(error.code).toBe('duplicate_order');
    // The id in the error is the sandbox's convenience; strict turns it off.
    expect(error.message.includes(`(id ${id})`)).toBe(profile === 'sandbox');
    expect((await create(t, 'shop-42-attempt-2')).status).toBe(201); // same amount and customer
    expect(await lostRow(t)).toMatchObject({ status: 'handled', trade: id });
    expect((await report(t)).total).toBe(0);
  });

  it('a new order with the same amount and customer before any retry: wrong, naming the lost trade', async () => {
    const t = await sandbox(profile);
    expect((await create(t, 'sbx-lost-p2')).status).toBe(0);
    const id = t.sandbox.store.trades.findUnique(DEMO.id, 'sbx-lost-p2')?.id;
    expect((await create(t, 'shop-43-attempt-2')).status).toBe(201);
    expect(await lostRow(t)).toMatchObject({ status: 'wrong', trade: id, detail: expect.stringContaining('a new order shop-43-attempt-2 with the same amount and customer') });
  });
});

it('the same requests give the same report under sandbox and strict: the rule does not depend on the profile', async () => {
  const reports: IntegrationReport[] = [];
  for (const profile of ['sandbox', 'strict']) {
    const t = await sandbox(profile);
    await create(t, 'sbx-lost-q1');
    await create(t, 'sbx-lost-q1');
    await create(t, 'shop-44-attempt-2');
    await create(t, 'sbx-lost-q2');
    await create(t, 'shop-45-attempt-2');
    reports.push(await report(t));
  }
  expect(reports[1]).toEqual(reports[0]);
  expect(reports[0]!.coverage[0]!.rows.find((r) => r.id === 'create.lost_answer')).toMatchObject({ status: 'wrong' });
});
