import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBrowser, DESKTOP, expectClean, launchBrowser, openPage, PHONE, screenshot, type WatchedPage } from './browser.js';
import { serveSandbox, startShop, type ServedSandbox, type Shop } from './servers.js';

/** 4000 0000 0000 3220 asks for a 3-D Secure code: 1111 pays, another code or Cancel declines. */
describeBrowser('3-D Secure in Chromium', () => {
  let browser: Browser;
  let sandbox: ServedSandbox;
  let shop: Shop;
  /** One tab per device for the file: each test loads its own trade's page in it. */
  let phone: WatchedPage;
  let desktop: WatchedPage;

  beforeAll(async () => {
    [browser, sandbox, shop] = await Promise.all([launchBrowser(), serveSandbox(), startShop()]);
    [phone, desktop] = await Promise.all([openPage(browser, PHONE), openPage(browser, DESKTOP)]);
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([sandbox?.close(), shop?.close()]);
  });

  const state = (id: string) => sandbox.sandbox.store.trades.get(id)?.state;

  /** Opens an ecom trade's page, pays with the 3-D Secure card, and waits for the code prompt. */
  async function challenge(lang: 'ru' | 'en', watched: WatchedPage, order: string) {
    const trade = await sandbox.create({ order, callback_url: `${shop.url}/callback`, return_url: `${shop.url}/back?order=${order}` }, 'build');
    const { page } = watched;
    await page.goto(`${trade.payment_data.url}?lang=${lang}`);
    await page.getByTestId('test-cards').locator('summary').click();
    expect(await page.getByTestId('test-cards').textContent()).toContain('4000 0000 0000 3220');
    await page.getByTestId('card-number').fill('4000000000003220');
    await page.getByTestId('card-expiry').fill('12/40');
    await page.getByTestId('card-cvc').fill('123');
    await page.getByTestId('pay').click();
    await page.getByTestId('3ds-code').waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    expect(await page.getByTestId('3ds').textContent()).toContain('4000 •••• 3220');
    expect(state(trade.id)).toBe('ecom');
    return { trade, watched, page };
  }

  for (const [lang, device, name] of [
    ['ru', () => phone, 'phone'],
    ['en', () => desktop, 'desktop'],
  ] as const) {
    it(`${lang}, ${name}: code 1111 confirms, sends the callback and goes to the return_url`, async () => {
      const { trade, watched, page } = await challenge(lang, device(), `3ds-ok-${lang}`);
      await screenshot(page, `3ds-challenge-${lang}-${name}`);
      await page.getByTestId('3ds-code').fill('1111');
      await page.getByTestId('3ds-submit').click();
      await page.getByTestId('shop').waitFor();
      expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(`/back?order=3ds-ok-${lang}`);
      expect(state(trade.id)).toBe('confirmed');
      const callback = await shop.waitFor((r) => r.method === 'POST' && r.body.includes(trade.id));
      expect(JSON.parse(callback.body)).toMatchObject({ id: trade.id, state: 'confirmed' });
      await expectClean(watched);
    });

    it(`${lang}, ${name}: another code declines (canceled)`, async () => {
      const { trade, watched, page } = await challenge(lang, device(), `3ds-bad-${lang}`);
      await page.getByTestId('3ds-code').fill('0000');
      await page.getByTestId('3ds-submit').click();
      await page.getByTestId('shop').waitFor();
      expect(state(trade.id)).toBe('canceled');
      expect(sandbox.sandbox.store.trades.get(trade.id)?.history.at(-1)?.note).toContain('Wrong 3-D Secure code');
      await expectClean(watched);
    });

    it(`${lang}, ${name}: Cancel declines (canceled)`, async () => {
      const { trade, watched, page } = await challenge(lang, device(), `3ds-cancel-${lang}`);
      await page.getByTestId('3ds-cancel').click();
      await page.getByTestId('shop').waitFor();
      expect(state(trade.id)).toBe('canceled');
      await expectClean(watched);
    });
  }

  it('without a return_url the result page says why, in the page language', async () => {
    const trade = await sandbox.create({ order: '3ds-result' }, 'build');
    const watched = phone;
    const { page } = watched;
    await page.goto(`${trade.payment_data.url}?lang=ru`);
    await page.getByTestId('card-number').fill('4000000000003220');
    await page.getByTestId('card-expiry').fill('12/40');
    await page.getByTestId('card-cvc').fill('123');
    await page.getByTestId('pay').click();
    await page.getByTestId('3ds-code').fill('9999');
    await page.getByTestId('3ds-submit').click();
    await page.getByTestId('result-title').waitFor();
    expect(await page.getByTestId('result-title').textContent()).toBe('Оплата отменена');
    expect(await page.getByTestId('reason').textContent()).toBe('Тестовая карта 4000 •••• 3220: Неверный код 3-D Secure: банк отклонил платёж.');
    expect(await page.getByTestId('result-icon').getAttribute('data-icon')).toBe('canceled');
    await screenshot(page, '3ds-declined-ru-phone');
    await expectClean(watched);
  });
});
