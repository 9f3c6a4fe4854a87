/**
 * The Playwright examples of docs/payment-page.md, run as written in Chromium (the docs block is
 * marked as an excerpt of this file; test/docs.test.ts checks that it still is).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBrowser, DESKTOP, launchBrowser, openPage, type WatchedPage } from './browser.js';
import { serveSandbox, startShop, type ServedSandbox, type Shop } from './servers.js';

describeBrowser('docs/payment-page.md: the Playwright examples', () => {
  let browser: Browser;
  let sandbox: ServedSandbox;
  let shop: Shop;
  /** One tab for the file: each example loads its own trade's page in it. */
  let tab: WatchedPage;

  beforeAll(async () => {
    [browser, sandbox, shop] = await Promise.all([launchBrowser(), serveSandbox(), startShop()]);
    tab = await openPage(browser, DESKTOP);
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([sandbox?.close(), shop?.close()]);
  });

  it('pays an ecom trade with the test card and lands on the return_url', async () => {
    const trade = await sandbox.create({ return_url: `${shop.url}/thanks` }, 'build');
    const { page } = tab;
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
    const { page } = tab;
    // Playwright: pin the language in your own tests
    await page.goto(`${trade.payment_data.url}?lang=en`);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
  });

  it('pays through the 3-D Secure step with code 1111', async () => {
    const trade = await sandbox.create({ return_url: `${shop.url}/after-3ds` }, 'build');
    const { page } = tab;
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
