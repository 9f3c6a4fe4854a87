/**
 * The README answers a signed-request user's first two questions: where the demo merchant's
 * secret is (the fixtures file, named, with the secret), and how a test pays an ecom trade
 * (POST /pay/<id>/pay with the card form's fields), which is checked here against the app with
 * the fields the README's block sends; the ecom trade read back has name/number/bank_name.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fences, readDoc } from '../docs/markdown.js';
import { DEMO, ecomBody, makeSandbox, type TestSandbox } from '../support.js';

const README = readDoc('README.md');

let t: TestSandbox;
beforeAll(async () => {
  t = await makeSandbox();
});
afterAll(() => t.close());

describe('the README for a signed-request user', () => {
  it('names the fixtures file and shows the demo merchant, its token and its secret as the file has them', () => {
    const fixtures = JSON.parse(readFileSync(new URL('../../fixtures/merchants.json', import.meta.url), 'utf8')) as { merchants: Array<{ id: string; token: string; secret: string }> };
    const demo = fixtures.merchants[0]!;
    expect(README).toContain('fixtures/merchants.json');
    for (const value of [demo.id, demo.token, demo.secret]) expect(README).toContain(`\`${value}\``);
  });

  it("pays an ecom trade with the card fields of the README's block, and the trade read back gains name, number and bank_name", async () => {
    const block = fences('README.md', README).find((fence) => fence.lang === 'bash' && fence.code.includes('/pay/$TRADE_ID/pay') && fence.code.includes('deposit/build'));
    expect(block, 'a bash block that builds an ecom trade and pays it').toBeDefined();
    const fields = [...block!.code.matchAll(/--data-urlencode '([a-z]+)=([^']*)'/g)].map((match) => [match[1]!, match[2]!] as [string, string]);
    expect(fields.map(([name]) => name)).toEqual(['number', 'expiry', 'cvc']);

    const built = await t.post('/api/v1/trades/deposit/build', ecomBody());
    const { id, payment_data } = (await built.json()) as { id: string; payment_data: Record<string, string> };
    expect(Object.keys(payment_data)).toEqual(['url']);
    const paid = await t.app.request(`/pay/${id}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
    expect(paid.status).toBe(303);
    const read = (await (await t.get(`/api/v1/trades/${DEMO.id}/${id}`)).json()) as { state: string; payment_data: Record<string, string> };
    expect(read.state).toBe('confirmed');
    expect(Object.keys(read.payment_data)).toEqual(['name', 'number', 'bank_name', 'url']);
    expect(README).toMatch(/read back \(`GET`\) has the\s+interface document's full `payment_data`, `name`, `number` and `bank_name`/);
  });
});
