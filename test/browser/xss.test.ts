import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DASHBOARD_POLL_MS, describeBrowser, DESKTOP, expectClean, launchBrowser, openPage, runClockUntil, screenshot, type WatchedPage } from './browser.js';
import { serveSandbox, startShop, type ServedSandbox, type Shop } from './servers.js';

const SCRIPT = '<script>window.__xss=1</script>';
const IMG = '<img src=x onerror="window.__xss=1">';

describeBrowser('merchant-supplied markup runs nowhere (Chromium)', () => {
  let browser: Browser;
  let sandbox: ServedSandbox;
  let shop: Shop;
  let watched: WatchedPage;
  let n = 0;

  beforeAll(async () => {
    // The callback receiver answers with markup too: the dashboard shows answers.
    [browser, sandbox, shop] = await Promise.all([launchBrowser(), serveSandbox(), startShop({ callbackAnswer: IMG })]);
    watched = await openPage(browser, DESKTOP);
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([sandbox?.close(), shop?.close()]);
  });

  const hostile = (type: 'any_bank' | 'nspk' | 'ecom') =>
    sandbox.create({ order: `${SCRIPT} ${++n}`, customer: IMG, callback_url: `${shop.url}/cb?${encodeURIComponent(IMG)}`, ...(type === 'ecom' ? {} : { type }) }, type === 'ecom' ? 'build' : 'create');

  it('on the payment page and the result page', async () => {
    const { page } = watched;
    const trade = await hostile('any_bank');
    await page.goto(trade.payment_data.url);
    expect(await page.getByTestId('order').textContent()).toBe(trade.order);
    await screenshot(page, 'xss-pay-desktop');
    await expectClean(watched);
    await Promise.all([page.waitForURL(/\/result$/), page.getByTestId('pay').click()]);
    expect(await page.getByTestId('order').textContent()).toBe(trade.order);
    expect(await page.title()).not.toContain('<');
    await screenshot(page, 'xss-result-desktop');
    await expectClean(watched);
  });

  it('on the card form, including the echoed card fields', async () => {
    const { page } = watched;
    const trade = await hostile('ecom');
    await page.goto(trade.payment_data.url);
    expect(await page.getByTestId('order').textContent()).toBe(trade.order);
    await page.getByTestId('card-number').evaluate((input: HTMLInputElement, value) => (input.value = value), IMG);
    await page.getByTestId('card-expiry').evaluate((input: HTMLInputElement, value) => (input.value = value), `"><${SCRIPT.slice(1)}`);
    await Promise.all([page.waitForURL(/\/pay$/), page.getByTestId('pay').click()]);
    expect(await page.getByTestId('card-number').inputValue()).toBe(IMG);
    expect(await page.getByTestId('error-number').isVisible()).toBe(true);
    await expectClean(watched);
  });

  it('on the dashboard: list, detail and callback answers', async () => {
    const { page } = watched;
    const trade = await hostile('any_bank');
    sandbox.sandbox.lifecycle.transition(trade.id, 'confirmed', 'admin', IMG);
    await sandbox.sandbox.store.commit();
    await shop.waitFor((request) => request.method === 'POST' && JSON.parse(request.body).id === trade.id);
    await page.goto(`${sandbox.url}/_sandbox/#trade=${trade.id}`);
    const row = page.getByTestId('trade-row').filter({ hasText: trade.order });
    await row.waitFor();
    expect(await row.getByTestId('trade-order').textContent()).toBe(trade.order);
    await page.getByTestId('detail-order').filter({ hasText: trade.order }).waitFor();
    expect(await page.getByTestId('detail-customer').textContent()).toBe(IMG);
    // The attempt is recorded once the shop's answer is read, which may be after the page loaded: the polls show it.
    await runClockUntil(page, DASHBOARD_POLL_MS, async () => (await page.getByTestId('attempt-response').filter({ hasText: IMG }).count()) > 0);
    expect(await page.getByTestId('history').textContent()).toContain(IMG);
    await screenshot(page, 'xss-dashboard-desktop');
    await expectClean(watched);
  });

  it('on the Russian nspk page with its QR code and deadline, and its result page', async () => {
    const { page } = watched;
    const trade = await hostile('nspk');
    sandbox.sandbox.scheduler.schedule('transition', sandbox.sandbox.clock.now() + 600_000, { state: 'expired' }, trade.id);
    await page.goto(`${trade.payment_data.url}?lang=ru`);
    expect(await page.getByTestId('order').textContent()).toBe(trade.order);
    expect(await page.getByTestId('sbp-qr').locator('svg').count()).toBe(1);
    expect(await page.getByTestId('deadline').textContent()).toMatch(/^Оплатите до \d{2}:\d{2} UTC$/);
    expect(await page.title()).not.toContain('<');
    await screenshot(page, 'xss-nspk-ru-desktop');
    await expectClean(watched);
    sandbox.sandbox.lifecycle.transition(trade.id, 'canceled', 'admin', IMG);
    await page.goto(`${trade.payment_data.url}/result?lang=en`);
    expect(await page.getByTestId('reason').textContent()).toBe(IMG);
    await page.goto(`${trade.payment_data.url}/result?lang=ru`);
    expect(await page.getByTestId('reason').textContent()).toBe('Оплата отменена из панели песочницы или admin API.');
    await expectClean(watched);
  });

  it('on the 3-D Secure step, including a forged card field', async () => {
    const { page } = watched;
    const trade = await hostile('ecom');
    await page.goto(`${trade.payment_data.url}?lang=ru`);
    await page.getByTestId('card-number').fill('4000 0000 0000 3220');
    await page.getByTestId('card-expiry').fill('12/40');
    await page.getByTestId('card-cvc').fill('123');
    await page.getByTestId('pay').click();
    await page.getByTestId('3ds-code').waitFor();
    expect(await page.getByTestId('order').textContent()).toBe(trade.order);
    await screenshot(page, 'xss-3ds-ru-desktop');
    await expectClean(watched);
    await page.locator('#challenge-form input[name="card"]').evaluate((input: HTMLInputElement, value) => (input.value = value), `"><${SCRIPT.slice(1)}`);
    await page.getByTestId('3ds-code').fill(IMG);
    await page.getByTestId('3ds-submit').click();
    await page.getByTestId('notice').waitFor();
    expect(sandbox.sandbox.store.trades.get(trade.id)?.state).toBe('ecom');
    await expectClean(watched);
  });

  it('through the dashboard New trade form', async () => {
    const { page } = watched;
    const order = `${IMG} new ${++n}`;
    await page.goto(`${sandbox.url}/_sandbox/?lang=ru`);
    await page.getByTestId('new-merchant').locator('option').first().waitFor({ state: 'attached' });
    await page.getByTestId('new-order').fill(order);
    await page.getByTestId('new-callback').fill(`${shop.url}/cb?${encodeURIComponent(SCRIPT)}`);
    await page.getByTestId('new-submit').click();
    await page.getByTestId('new-created').waitFor();
    expect(await page.getByTestId('new-created').textContent()).toContain(order);
    const row = page.getByTestId('trade-row').filter({ hasText: order });
    await row.waitFor();
    expect(await row.getByTestId('trade-order').textContent()).toBe(order);
    await expectClean(watched);
  });
});
