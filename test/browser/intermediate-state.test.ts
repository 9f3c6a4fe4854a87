import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { it, test } from '../temp-folder.js';
import { describeBrowser, DESKTOP, expectClean, launchBrowser, openPage, PHONE, runClockUntil, screenshot, STATUS_POLL_MS, type WatchedPage } from './browser.js';
import { serveSandbox, type ServedSandbox } from './servers.js';

/** A provider whose payments are processed before they are confirmed. */
const PROFILE = 'name: slow-bank\nextends: sandbox\nstates:\n  intermediate: [processing]\n';

/**
 * The payment page under a provider profile with an intermediate state: paying moves the trade
 * to `processing`, the page says the payment is being processed (no form, no deadline), and it
 * turns into the confirmed result by itself once the sandbox clock settles the payment.
 */
describeBrowser('the payment page of a profile with an intermediate state, in Chromium', () => {
  let browser: Browser;
  let sandbox: ServedSandbox;
  let desktop: WatchedPage;
  let phone: WatchedPage;
  let profile: string;

  test.beforeAll(({ fileFolder }) => {
    profile = join(fileFolder, 'slow-bank.yaml');
    writeFileSync(profile, PROFILE);
  });

  beforeAll(async () => {
    [browser, sandbox] = await Promise.all([launchBrowser(), serveSandbox({ clock: 'manual', profile })]);
    [desktop, phone] = await Promise.all([openPage(browser, DESKTOP), openPage(browser, PHONE)]);
  });

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  const advance = async (by: string) => {
    const res = await fetch(`${sandbox.url}/_sandbox/clock/advance`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ by }) });
    expect(res.status).toBe(200);
  };
  const states = (id: string) => sandbox.sandbox.store.trades.get(id)?.history.map((entry) => `${entry.to}:${entry.cause}`);

  it('en, desktop: "I have paid" shows the payment being processed, then the confirmed result', async () => {
    const trade = await sandbox.create({ order: 'processing-en' });
    const { page } = desktop;
    await page.goto(trade.payment_data.url);
    await Promise.all([page.waitForURL(`${sandbox.url}/pay/${trade.id}/result`), page.getByTestId('pay').click()]);
    expect(await page.getByTestId('result-title').textContent()).toBe('Payment is being processed');
    expect(await page.getByTestId('state').getAttribute('data-state')).toBe('processing');
    expect(await page.getByTestId('state').textContent()).toBe('being processed (processing)');
    expect(await page.getByTestId('reason').textContent()).toBe('The payment is being processed; this page shows the result once the trade is final.');
    expect(states(trade.id)).toEqual(['created:create', 'processing:page']);
    await screenshot(page, 'pay-processing-en-desktop');

    // The payment page itself says the same, with nothing to press.
    await page.goto(trade.payment_data.url);
    expect(await page.getByTestId('result-title').textContent()).toBe('Payment is being processed');
    expect(await page.getByTestId('pay').count()).toBe(0);
    expect(await page.getByTestId('cancel').count()).toBe(0);

    // The page's status checks bring the settlement: confirmed 5 s of sandbox time later.
    await advance('5s');
    await runClockUntil(page, STATUS_POLL_MS, async () => (await page.getByTestId('result-title').filter({ hasText: 'Payment received' }).count()) === 1);
    expect(await page.getByTestId('state').getAttribute('data-state')).toBe('confirmed');
    expect(states(trade.id)).toEqual(['created:create', 'processing:page', 'confirmed:page']);
    await expectClean(desktop);
  });

  it('ru, phone: an approved test card is processed, and a second press changes nothing', async () => {
    const trade = await sandbox.create({ order: 'processing-ru' }, 'build');
    const { page } = phone;
    await page.goto(`${trade.payment_data.url}?lang=ru`);
    await page.getByTestId('card-number').fill('4242 4242 4242 4242');
    await page.getByTestId('card-expiry').fill('12/40');
    await page.getByTestId('card-cvc').fill('123');
    await Promise.all([page.waitForURL(`${sandbox.url}/pay/${trade.id}/result?lang=ru`), page.getByTestId('pay').click()]);
    expect(await page.getByTestId('result-title').textContent()).toBe('Платёж обрабатывается');
    expect(await page.getByTestId('state').textContent()).toBe('обрабатывается (processing)');
    await screenshot(page, 'pay-processing-ru-phone');

    // A form sent again (a second tab, the back button) is refused, saying why.
    const again = await fetch(`${sandbox.url}/pay/${trade.id}/pay?lang=ru`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'number=4242424242424242&expiry=12%2F40&cvc=123',
    });
    expect(again.status).toBe(409);
    // The page's text, without the markup that keeps "(processing)" on one line.
    expect((await again.text()).replace(/<[^>]+>/g, '')).toContain('Платёж уже обрабатывается (processing); ничего не изменено.');
    expect(sandbox.sandbox.store.trades.get(trade.id)?.state).toBe('processing');

    await advance('5s');
    await runClockUntil(page, STATUS_POLL_MS, async () => (await page.getByTestId('result-title').filter({ hasText: 'Оплата получена' }).count()) === 1);
    await expectClean(phone);
  });
});
