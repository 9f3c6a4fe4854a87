import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ecomBody, makeSandbox, type TestSandbox } from '../../test/support.js';

function testid(html: string, id: string): string | undefined {
  const match = new RegExp(`<(\\w+)[^>]*data-testid="${id}"[^>]*>([\\s\\S]*?)</\\1>`).exec(html);
  return match?.[2]?.replace(/<[^>]+>/g, '').trim();
}

let t: TestSandbox;
let id: string;
beforeEach(async () => {
  t = await makeSandbox({ clock: 'manual', pageLang: 'en' });
  const res = await t.post('/api/v1/trades/deposit/build', ecomBody());
  id = ((await res.json()) as { id: string }).id;
});
afterEach(() => t.close());

const GOOD = { expiry: '12/40', cvc: '123' };
const pay = (form: Record<string, string>) => t.app.request(`/pay/${id}/pay`, { method: 'POST', body: new URLSearchParams(form) });
const trade = () => t.sandbox.store.trades.get(id)!;

describe('the ecom card form (POST /pay/:id/pay)', () => {
  it('4242 4242 4242 4242 pays', async () => {
    const res = await pay({ number: '4242 4242 4242 4242', ...GOOD });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/pay/${id}/result`);
    expect(trade().state).toBe('confirmed');
    expect(trade().history.at(-1)).toMatchObject({ from: 'ecom', to: 'confirmed', cause: 'page' });
  });

  it('4000 0000 0000 0002 is declined: canceled, with the reason on the result page', async () => {
    const res = await pay({ number: '4000000000000002', ...GOOD });
    expect(res.status).toBe(303);
    expect(trade().state).toBe('canceled');
    const html = await (await t.app.request(`/pay/${id}/result`)).text();
    expect(testid(html, 'state')).toBe('canceled');
    expect(testid(html, 'reason')).toBe('Test card 4000 •••• 0002: Card declined by the issuer (generic decline).');
  });

  it('the other documented cards: insufficient funds, timeout', async () => {
    expect((await pay({ number: '4000 0000 0000 0069', ...GOOD })).status).toBe(303);
    expect(trade().state).toBe('expired');

    const other = await t.post('/api/v1/trades/deposit/build', ecomBody());
    id = ((await other.json()) as { id: string }).id;
    await pay({ number: '4000 0000 0000 9995', ...GOOD });
    expect(trade().state).toBe('canceled');
    expect(trade().history.at(-1)?.note).toContain('insufficient funds');
  });

  it('an expiry in the past, a bad CVC or a bad number shows the errors and changes nothing', async () => {
    const now = new Date(t.sandbox.clock.now());
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const past = `${String(lastMonth.getUTCMonth() + 1).padStart(2, '0')}/${String(lastMonth.getUTCFullYear() % 100).padStart(2, '0')}`;
    const res = await pay({ number: '4242 4242 4242 4242', expiry: past, cvc: '12' });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(testid(html, 'error-expiry')).toContain('This card expired');
    expect(testid(html, 'error-cvc')).toContain('3 digits');
    expect(html).not.toContain('data-testid="error-number"');
    expect(html).toContain('value="4242 4242 4242 4242"');
    expect(html).toContain('aria-invalid="true"');

    const forms: Record<string, string>[] = [{ number: '4242 4242 4242 4242', expiry: '13/40', cvc: '123' }, { number: '4242', ...GOOD }, { number: '', ...GOOD }, {}];
    for (const form of forms) {
      expect((await pay(form)).status).toBe(422);
    }
    expect(trade().state).toBe('ecom');
    expect(trade().history).toHaveLength(1);
  });

  it('accepts the current month as expiry (sandbox clock)', async () => {
    const now = new Date(t.sandbox.clock.now());
    const expiry = `${String(now.getUTCMonth() + 1).padStart(2, '0')}/${String(now.getUTCFullYear() % 100).padStart(2, '0')}`;
    expect((await pay({ number: '4242424242424242', expiry, cvc: '321' })).status).toBe(303);
  });

  it('an unknown card number gets a message listing the test cards', async () => {
    const res = await pay({ number: '5555 5555 5555 4444', ...GOOD });
    expect(res.status).toBe(422);
    const message = testid(await res.text(), 'error-number');
    expect(message).toContain('5555 5555 5555 4444 is not a sandbox test card');
    expect(message).toContain('4242 4242 4242 4242 (pays)');
    expect(trade().state).toBe('ecom');
  });

  it('never echoes the CVC and escapes what it echoes', async () => {
    const html = await (await pay({ number: '<b>4242</b>', expiry: '"><script>x</script>', cvc: '999' })).text();
    expect(html).not.toContain('<script>x');
    expect(html).toContain('value="&lt;b&gt;4242&lt;/b&gt;"');
    expect(html).toMatch(/data-testid="card-cvc"[^>]*value=""/);
  });

  it('refuses an oversized field with a readable page, changing nothing', async () => {
    const res = await pay({ number: '4'.repeat(200), ...GOOD });
    expect(res.status).toBe(422);
    expect(testid(await res.text(), 'notice')).toContain('could not be read');
    expect(trade().state).toBe('ecom');
  });

  it('cancel ignores the card fields', async () => {
    const res = await t.app.request(`/pay/${id}/cancel`, { method: 'POST', body: new URLSearchParams({ number: 'garbage' }) });
    expect(res.status).toBe(303);
    expect(trade().state).toBe('canceled');
  });
});

describe('3-D Secure (4000 0000 0000 3220)', () => {
  const challenge = (form: Record<string, string>, lang = 'en') => t.app.request(`/pay/${id}/3ds?lang=${lang}`, { method: 'POST', body: new URLSearchParams(form) });

  it('asks for the code on the challenge page and changes nothing yet', async () => {
    const res = await pay({ number: '4000 0000 0000 3220', ...GOOD });
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const field of ['3ds-code', '3ds-submit', '3ds-cancel']) expect(html).toContain(`data-testid="${field}"`);
    expect(html).toContain('name="card" value="4000000000003220"');
    expect(html).toContain('4000 •••• 3220');
    expect(trade().state).toBe('ecom');
    expect(trade().history).toHaveLength(1);
  });

  it('code 1111 confirms: 303 on, history note names the card', async () => {
    const res = await challenge({ card: '4000000000003220', code: '1111' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/pay/${id}/result?lang=en`);
    expect(trade().state).toBe('confirmed');
    expect(trade().history.at(-1)).toMatchObject({ cause: 'page', note: 'Test card 4000 •••• 3220: 3-D Secure code accepted: payment approved.' });
    const html = await (await t.app.request(`/pay/${id}/result?lang=ru`)).text();
    expect(testid(html, 'reason')).toBe('Тестовая карта 4000 •••• 3220: Код 3-D Secure принят: платёж одобрен.');
  });

  it('takes the card number with spaces or dashes, as the card form does', async () => {
    const res = await challenge({ card: '4000 0000-0000 3220', code: '1111' });
    expect(res.status).toBe(303);
    expect(trade().state).toBe('confirmed');
  });

  it('any other code declines (canceled)', async () => {
    expect((await challenge({ card: '4000000000003220', code: '1234' })).status).toBe(303);
    expect(trade().state).toBe('canceled');
    expect(trade().history.at(-1)?.note).toContain('Wrong 3-D Secure code');
  });

  it('cancel declines (canceled) whatever the code field holds', async () => {
    expect((await challenge({ card: '4000000000003220', code: '1111', action: 'cancel' })).status).toBe(303);
    expect(trade().state).toBe('canceled');
    expect(trade().history.at(-1)?.note).toContain('canceled the 3-D Secure check');
  });

  it('is reached only with the challenged card: another card or none changes nothing (422)', async () => {
    expect((await challenge({ card: '4242424242424242', code: '1111' })).status).toBe(422);
    expect((await challenge({ code: '1111' })).status).toBe(422);
    expect(trade().state).toBe('ecom');
  });

  it('a final trade is not moved again (409)', async () => {
    await challenge({ card: '4000000000003220', code: '1111' });
    expect((await challenge({ card: '4000000000003220', code: '0000' })).status).toBe(409);
    expect(trade().state).toBe('confirmed');
  });
});
