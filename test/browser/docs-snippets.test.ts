/**
 * The Playwright examples of docs/payment-page.md, run as written in Chromium (the docs block is
 * marked as an excerpt of this file; test/docs.test.ts checks that it still is).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBrowser, DESKTOP, launchBrowser, openPage } from './browser.js';
import { serveSandbox, startShop, type ServedSandbox, type Shop } from './servers.js';

describeBrowser('docs/payment-page.md: the Playwright examples', () => {
  let browser: Browser;
  let sandbox: ServedSandbox;
  let shop: Shop;

  beforeAll(async () => {
    [browser, sandbox, shop] = await Promise.all([launchBrowser(), serveSandbox(), startShop()]);
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([sandbox?.close(), shop?.close()]);
  });

  it('pays an ecom trade with the test card and lands on the return_url', async () => {
    const trade = await sandbox.create({ return_url: `${shop.url}/thanks` }, 'build');
    const { page } = await openPage(browser, DESKTOP);
    // Playwright: pay an ecom trade with the test card
    await page.goto(trade.payment_data.url);
    await page.getByTestId('card-number').fill('4242 4242 4242 4242');
    await page.getByTestId('card-expiry').fill('12/30');
    await page.getByTestId('card-cvc').fill('123');
    await page.getByTestId('pay').click(); // lands on your return_url
    await page.getByTestId('shop').waitFor();
    expect(new URL(page.url()).pathname).toBe('/thanks');
    expect(sandbox.sandbox.store.trades.get(trade.id)?.state).toBe('confirmed');
  });

  it('pins the page language with ?lang=', async () => {
    const trade = await sandbox.create({}, 'build');
    const { page } = await openPage(browser, DESKTOP);
    // Playwright: pin the language in your own tests
    await page.goto(`${trade.payment_data.url}?lang=en`);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
  });

  it('pays through the 3-D Secure step with code 1111', async () => {
    const trade = await sandbox.create({ return_url: `${shop.url}/after-3ds` }, 'build');
    const { page } = await openPage(browser, DESKTOP);
    await page.goto(trade.payment_data.url);
    // Playwright
    await page.getByTestId('card-number').fill('4000 0000 0000 3220');
    await page.getByTestId('card-expiry').fill('12/30');
    await page.getByTestId('card-cvc').fill('123');
    await page.getByTestId('pay').click();
    await page.getByTestId('3ds-code').fill('1111');
    await page.getByTestId('3ds-submit').click(); // lands on your return_url
    await page.getByTestId('shop').waitFor();
    expect(new URL(page.url()).pathname).toBe('/after-3ds');
    expect(sandbox.sandbox.store.trades.get(trade.id)?.state).toBe('confirmed');
  });
});
