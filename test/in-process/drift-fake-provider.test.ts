import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVIATIONS, startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.js';
import { DEMO, driftAgainst, row, SECOND } from './drift-support.js';

// The fake provider of test/fixtures/ deviates from the sandbox on purpose in DEVIATIONS (a
// status, an error envelope, a field missing, a field of another type, an amount as a string, a
// card with spaces, a state name, a content type, headers, callbacks signed another way...):
// drift reports every one of them, and nothing else.

let fake: FakeProvider;

beforeAll(async () => {
  fake = await startFakeProvider([
    { id: DEMO.merchant, token: DEMO.token, secret: DEMO.secret, rate: 92.5 },
    { id: SECOND.merchant, token: SECOND.token, secret: SECOND.secret, rate: 91.75 },
  ]);
});

afterAll(() => fake.close());

describe('drift against the fake provider', () => {
  it('reports each of its deliberate deviations, and nothing else', async () => {
    expect(DEVIATIONS.length).toBeGreaterThanOrEqual(15);
    const report = await driftAgainst(fake.url, { confirm: (id) => fake.confirm(id) });
    expect(report.stopped).toBeUndefined();
    expect(report.skipped).toEqual([]);
    const found = report.differences.map(row);
    expect([...found].sort()).toEqual([...DEVIATIONS].sort());
    // X-Token accepted on create made a trade: it is listed with the others the run created.
    expect(report.trades.map((trade) => trade.probe)).toEqual(['create.any_bank', 'create.nspk', 'build.ecom', 'auth.create_with_x_token', 'setup.other_merchant']);
  });

  it('sends at most 40 requests, the gap apart, orders drift-<random> and amount_cents 1', async () => {
    const before = fake.requests.length;
    const report = await driftAgainst(fake.url, { gapMs: 25 });
    const sent = fake.requests.slice(before);
    expect(sent.length).toBe(report.requests);
    expect(sent.length).toBeLessThanOrEqual(40);
    for (let i = 1; i < sent.length; i++) expect((sent[i]?.at ?? 0) - (sent[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(25);
    for (const request of sent.filter((r) => r.method === 'POST')) {
      const body = JSON.parse(request.body) as { order?: string; amount_cents?: number };
      if (body.order !== undefined) expect(body.order).toMatch(/^drift-[0-9a-f]{12}$/);
      if (typeof body.amount_cents === 'number') expect([1, 1.5]).toContain(body.amount_cents);
    }
  });
});
