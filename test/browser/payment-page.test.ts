import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { verifyCallbackSignature } from '../../src/auth/signature.js';
import { DEMO } from '../support.js';
import { describeBrowser, DESKTOP, expectClean, launchBrowser, openPage, PHONE, runClockUntil, screenshot, STATUS_POLL_MS, type WatchedPage } from './browser.js';
import { serveSandbox, startShop, type ServedSandbox, type Shop } from './servers.js';

describeBrowser('payment page in Chromium', () => {
  let browser: Browser;
  let sandbox: ServedSandbox;
  let shop: Shop;
  let desktop: WatchedPage;
  let phone: WatchedPage;

  beforeAll(async () => {
    [browser, sandbox, shop] = await Promise.all([launchBrowser(), serveSandbox(), startShop()]);
    [desktop, phone] = await Promise.all([openPage(browser, DESKTOP), openPage(browser, PHONE)]);
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([sandbox?.close(), shop?.close()]);
  });

  const state = (id: string) => sandbox.sandbox.store.trades.get(id)?.state;

  it('pays a P2P trade and lands on the return_url served by the shop', async () => {
    const trade = await sandbox.create({ return_url: `${shop.url}/thanks?order=p2p` });
    const { page } = desktop;
    await page.goto(trade.payment_data.url);
    await expect.poll(() => page.getByTestId('amount').textContent()).toBe('₽312.50');
    await expect.poll(() => page.getByTestId('merchant').textContent()).toBe('Demo Shop');
    expect(await page.getByTestId('requisites-number').textContent()).toMatch(/^\d{4} \d{4} \d{4} \d{4}$/);
    await desktop.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: sandbox.url });
    // The button says "Copied" for 1.5 s, less than a loaded machine can take between two
    // steps of a test: the page records the first text it shows after the click.
    await page.getByTestId('copy').evaluate((button) => {
      (window as unknown as { copyLabel: Promise<string | null> }).copyLabel = new Promise((resolve) =>
        new MutationObserver(() => resolve(button.textContent)).observe(button, { childList: true, characterData: true, subtree: true }),
      );
    });
    await page.getByTestId('copy').click();
    expect(await page.evaluate(() => (window as unknown as { copyLabel: Promise<string | null> }).copyLabel)).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(sandbox.sandbox.store.trades.get(trade.id)?.requisites.number);
    await screenshot(page, 'pay-p2p-desktop');
    await expectClean(desktop);

    await Promise.all([page.waitForURL(`${shop.url}/thanks?order=p2p`), page.getByTestId('pay').click()]);
    expect(await page.getByTestId('shop').textContent()).toBe('Back at the shop');
    expect(state(trade.id)).toBe('confirmed');
    expect(sandbox.sandbox.store.trades.get(trade.id)?.history.at(-1)?.cause).toBe('page');
  });

  it('shows the nspk phone number readable on a phone', async () => {
    const trade = await sandbox.create({ type: 'nspk' });
    const { page } = phone;
    await page.goto(trade.payment_data.url);
    expect(await page.getByTestId('requisites-number').textContent()).toMatch(/^\+7 9\d{2} \d{3}-\d{2}-\d{2}$/);
    // Nothing sticks out sideways on a 390 px wide screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'pay-nspk-phone');
    await expectClean(phone);
  });

  it('pays an ecom trade with 4242 4242 4242 4242, typed and formatted in the browser', async () => {
    const trade = await sandbox.create({}, 'build');
    const { page } = phone;
    await page.goto(trade.payment_data.url);
    await page.getByTestId('card-number').pressSequentially('4242424242424242');
    await page.getByTestId('card-expiry').pressSequentially('1240');
    await page.getByTestId('card-cvc').pressSequentially('123');
    expect(await page.getByTestId('card-number').inputValue()).toBe('4242 4242 4242 4242');
    expect(await page.getByTestId('card-expiry').inputValue()).toBe('12/40');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'pay-ecom-phone');
    await Promise.all([page.waitForURL(`${sandbox.url}/pay/${trade.id}/result`), page.getByTestId('pay').click()]);
    expect(await page.getByTestId('state').textContent()).toBe('confirmed');
    expect(await page.getByTestId('result-title').textContent()).toBe('Payment received');
    await screenshot(page, 'result-confirmed-phone');
    await expectClean(phone);
    expect(state(trade.id)).toBe('confirmed');
  });

  it('declines 4000 0000 0000 0002 with a visible reason and cancels the trade', async () => {
    const trade = await sandbox.create({}, 'build');
    const { page } = desktop;
    await page.goto(trade.payment_data.url);
    await page.getByTestId('card-number').fill('4000 0000 0000 0002');
    await page.getByTestId('card-expiry').fill('12/40');
    await page.getByTestId('card-cvc').fill('123');
    await screenshot(page, 'pay-ecom-desktop');
    await Promise.all([page.waitForURL(`${sandbox.url}/pay/${trade.id}/result`), page.getByTestId('pay').click()]);
    expect(await page.getByTestId('state').textContent()).toBe('canceled');
    expect(await page.getByTestId('reason').textContent()).toContain('Card declined by the issuer');
    await screenshot(page, 'result-declined-desktop');
    await expectClean(desktop);
    expect(state(trade.id)).toBe('canceled');
  });

  it('shows form errors and an unknown card message without changing the trade', async () => {
    const trade = await sandbox.create({}, 'build');
    const { page } = desktop;
    await page.goto(trade.payment_data.url);
    await page.getByTestId('card-number').fill('5555 5555 5555 4444');
    await page.getByTestId('card-expiry').fill('01/20');
    await page.getByTestId('card-cvc').fill('1');
    await Promise.all([page.waitForURL(trade.payment_data.url.replace(/$/, '/pay')), page.getByTestId('pay').click()]);
    expect(await page.getByTestId('error-number').textContent()).toContain('is not a sandbox test card');
    expect(await page.getByTestId('error-expiry').textContent()).toContain('expired');
    expect(await page.getByTestId('error-cvc').textContent()).toContain('3 digits');
    await screenshot(page, 'pay-ecom-errors-desktop');
    await expectClean(desktop);
    expect(state(trade.id)).toBe('ecom');
  });

  it('cancel moves the trade to canceled and a final trade shows its state, not the form', async () => {
    const trade = await sandbox.create({ return_url: `${shop.url}/back` });
    const { page } = phone;
    await page.goto(trade.payment_data.url);
    await screenshot(page, 'pay-p2p-phone');
    await Promise.all([page.waitForURL(`${shop.url}/back`), page.getByTestId('cancel').click()]);
    expect(state(trade.id)).toBe('canceled');
    await page.goto(trade.payment_data.url);
    expect(await page.getByTestId('state').textContent()).toBe('canceled');
    expect(await page.getByTestId('pay').count()).toBe(0);
    expect(await page.getByTestId('back').getAttribute('href')).toBe(`${shop.url}/back`);
    await screenshot(page, 'final-canceled-phone');
    await expectClean(phone);
  });

  it('the merchant receives a signed callback after the payer pays', async () => {
    const trade = await sandbox.create({ callback_url: `${shop.url}/callbacks/deposit` });
    const { page } = desktop;
    await page.goto(trade.payment_data.url);
    await Promise.all([page.waitForURL(`${sandbox.url}/pay/${trade.id}/result`), page.getByTestId('pay').click()]);
    const callback = await shop.waitFor((request) => request.method === 'POST' && request.path === '/callbacks/deposit');
    expect(JSON.parse(callback.body)).toMatchObject({ id: trade.id, state: 'confirmed', order: trade.order });
    expect(verifyCallbackSignature(DEMO.secret, callback.body, callback.headers['x-signature'] as string)).toBe(true);
  });

  it('with a real clock, the countdown runs out and the page shows the expired trade', async () => {
    const real = await serveSandbox({ clock: 'real' });
    const { page } = desktop;
    try {
      const trade = await real.create();
      // Long enough for the page to be served before the step runs, even on a loaded machine.
      real.sandbox.scheduler.schedule('transition', real.sandbox.clock.now() + 3_000, { state: 'expired' }, trade.id);
      // The page's status checks wait until the countdown has been seen at 0:00: a check that
      // found the trade expired would reload the page before a slow test could read it.
      let countedDown!: () => void;
      const seen = new Promise<void>((resolve) => (countedDown = resolve));
      await page.route(`${trade.payment_data.url}/status`, async (route) => {
        await seen;
        await route.continue();
      });
      await page.goto(trade.payment_data.url);
      expect(await page.getByTestId('countdown').getAttribute('data-clock')).toBe('real');
      // The page's clock runs the countdown's 3 s; the sandbox's runs the expiry on its own.
      await page.clock.runFor(3_000);
      await page.getByTestId('countdown').filter({ hasText: '0:00' }).waitFor();
      await expect.poll(() => real.sandbox.store.trades.get(trade.id)?.state, { timeout: 60_000 }).toBe('expired');
      countedDown();
      await runClockUntil(page, STATUS_POLL_MS, async () => (await page.getByTestId('state').filter({ hasText: 'expired' }).count()) === 1);
      expect(await page.getByTestId('result-title').textContent()).toBe('Time to pay has expired');
      await expectClean(desktop);
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      await real.close();
    }
  });

  it('counts down to the scheduled expiry', async () => {
    const trade = await sandbox.create();
    sandbox.sandbox.scheduler.schedule('transition', sandbox.sandbox.clock.now() + 15 * 60_000, { state: 'expired' }, trade.id);
    const { page } = desktop;
    await page.goto(trade.payment_data.url);
    expect(await page.getByTestId('countdown').textContent()).toContain('15:00');
    await screenshot(page, 'pay-countdown-desktop');
    await expectClean(desktop);
  });
});
