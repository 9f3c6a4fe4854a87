import { afterEach, describe, expect, it } from 'vitest';
import { ecomBody, makeSandbox, p2pBody, type TestSandbox } from '../../test/support.js';
import { formatDateTime } from './format.js';

function testid(html: string, id: string): string | undefined {
  const match = new RegExp(`<(\\w+)[^>]*data-testid="${id}"[^>]*>([\\s\\S]*?)</\\1>`).exec(html);
  return match?.[2]?.replace(/<[^>]+>/g, '').trim();
}

let t: TestSandbox;
afterEach(() => t.close());

async function trade(body = p2pBody(), endpoint = 'create'): Promise<string> {
  const res = await t.post(`/api/v1/trades/deposit/${endpoint}`, body);
  return ((await res.json()) as { id: string }).id;
}
const get = async (path: string, headers: Record<string, string> = {}) => (await t.app.request(path, { headers })).text();

describe('the payment page language', () => {
  it('is Russian by default: texts, <html lang>, amount as 312,50 ₽', async () => {
    t = await makeSandbox({ clock: 'manual' });
    const html = await get(`/pay/${await trade()}`);
    expect(html).toContain('<html lang="ru"');
    expect(testid(html, 'amount')).toBe('312,50\u00a0₽');
    expect(testid(html, 'pay')).toBe('Я оплатил');
    expect(testid(html, 'cancel')).toBe('Отменить');
    expect(html).toContain('href="?lang=en" data-testid="lang-en"');
  });

  it('follows ?lang= first, then Accept-Language, then --page-lang', async () => {
    t = await makeSandbox({ clock: 'manual', pageLang: 'en' });
    const id = await trade();
    expect(await get(`/pay/${id}?lang=ru`, { 'Accept-Language': 'en' })).toContain('<html lang="ru"');
    expect(await get(`/pay/${id}`, { 'Accept-Language': 'ru-RU,ru;q=0.9,en;q=0.5' })).toContain('<html lang="ru"');
    expect(await get(`/pay/${id}`, { 'Accept-Language': 'de-DE' })).toContain('<html lang="en"');
    expect(await get(`/pay/${id}?lang=xx`)).toContain('<html lang="en"');
  });

  it('keeps an asked ?lang= through the form and the redirect to the result page', async () => {
    t = await makeSandbox({ clock: 'manual' });
    const id = await trade();
    const html = await get(`/pay/${id}?lang=en`);
    expect(html).toContain(`action="/pay/${id}/pay?lang=en"`);
    const res = await t.app.request(`/pay/${id}/pay?lang=en`, { method: 'POST', body: new URLSearchParams({}) });
    expect(res.headers.get('location')).toBe(`/pay/${id}/result?lang=en`);
    const result = await get(`/pay/${id}/result?lang=en`);
    expect(testid(result, 'result-title')).toBe('Payment received');
    expect(result).toContain('data-testid="result-icon"');
    expect(result).not.toMatch(/[\u{1F300}-\u{1FAFF}\u2705\u231B\u23F3\u2716]/u);
  });

  it('says card errors and the test cards in Russian', async () => {
    t = await makeSandbox({ clock: 'manual' });
    const id = await trade(ecomBody(), 'build');
    const res = await t.app.request(`/pay/${id}/pay`, { method: 'POST', body: new URLSearchParams({ number: '4111 1111 1111 1111', expiry: '12/40', cvc: '123' }) });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(testid(html, 'error-number')).toContain('4111 1111 1111 1111 — не тестовая карта песочницы');
    expect(testid(html, 'error-number')).toContain('4000 0000 0000 3220 (3-D Secure)');
    expect(testid(html, 'test-cards')).toContain('Банк запрашивает код 3-D Secure');
  });
});

describe('the deadline and GET /pay/:id/status', () => {
  it('shows "pay before" in sandbox time with its zone, and says a manual clock does not tick', async () => {
    t = await makeSandbox({ clock: 'manual' });
    const id = await trade();
    const due = t.sandbox.clock.now() + 15 * 60_000;
    t.sandbox.scheduler.schedule('transition', due, { state: 'expired' }, id);
    const html = await get(`/pay/${id}`);
    const hhmm = new Date(due).toISOString().slice(11, 16);
    expect(testid(html, 'deadline')).toBe(`Оплатите до ${hhmm} UTC`);
    // The instant and its UTC time in words, for pay.js to show in the payer's zone and for the title.
    const time = /<time ([^>]*)data-testid="deadline-time"/.exec(html)?.[1] ?? '';
    expect(time).toContain(`datetime="${new Date(due).toISOString()}"`);
    expect(time).toContain(`title="${formatDateTime(due, 'ru')}"`);
    expect(formatDateTime(due, 'ru')).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}:\d{2} UTC$/);
    expect(testid(html, 'time-left')).toBe('15:00');
    expect(testid(html, 'manual-clock')).toContain('Часы песочницы ручные');
    expect(html).toContain(`data-status-url="/pay/${id}/status"`);
    expect(await (await t.app.request(`/pay/${id}/status`)).json()).toEqual({ state: 'created', final: false, remaining_ms: 900_000, clock: 'manual' });
    t.sandbox.lifecycle.transition(id, 'expired', 'admin');
    expect(await (await t.app.request(`/pay/${id}/status`)).json()).toEqual({ state: 'expired', final: true, remaining_ms: null, clock: 'manual' });
    expect((await t.app.request('/pay/00000000-0000-4000-8000-000000000000/status')).status).toBe(404);
  });
});

describe('the dashboard language and GET /_sandbox/merchants', () => {
  it('the dashboard is English by default and Russian with ?lang=ru', async () => {
    t = await makeSandbox({ adminToken: 'qa' });
    expect(await get('/_sandbox/')).toContain('<html lang="en"');
    const ru = await get('/_sandbox/?lang=ru');
    expect(ru).toContain('<html lang="ru"');
    expect(testid(ru, 'new-submit')).toBe('Создать');
  });

  it('lists the merchants with names and credentials behind the admin token', async () => {
    t = await makeSandbox({ adminToken: 'qa', auth: 'signature' });
    expect((await t.app.request('/_sandbox/merchants')).status).toBe(401);
    const answer = (await (await t.app.request('/_sandbox/merchants', { headers: { Authorization: 'Bearer qa' } })).json()) as { auth: string; merchants: { name: string }[] };
    expect(answer.auth).toBe('signature');
    expect(answer.merchants.map((m) => m.name)).toEqual(['Demo Shop', 'Second Shop']);
    expect(Object.keys(answer.merchants[0]!)).toEqual(['id', 'name', 'rate', 'from', 'token', 'secret']);
  });
});
