import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DASHBOARD_POLL_MS, describeBrowser, DESKTOP, expectClean, FILTER_DELAY_MS, forgetStorage, launchBrowser, openPage, PHONE, runClockUntil, screenshot, type WatchedPage } from './browser.js';
import { serveSandbox, startShop, type ServedSandbox, type Shop } from './servers.js';

const TOKEN = 'qa-admin-token';

describeBrowser('dashboard in Chromium', () => {
  let browser: Browser;
  let sandbox: ServedSandbox;
  let shop: Shop;
  /** The desktop tab of every test but the phone's; a sign-in test starts it signed out (forgetStorage). */
  let desktop: WatchedPage;

  beforeAll(async () => {
    [browser, sandbox, shop] = await Promise.all([launchBrowser(), serveSandbox({ adminToken: TOKEN }), startShop()]);
    desktop = await openPage(browser, DESKTOP);
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([sandbox?.close(), shop?.close()]);
  });

  /** Opens the dashboard, entering the admin token when it asks for it. */
  async function open(page: Page, hash = ''): Promise<void> {
    await page.goto(`${sandbox.url}/_sandbox/${hash}`);
    const prompt = page.getByTestId('token-input');
    await Promise.race([prompt.waitFor(), page.getByTestId('trades-total').filter({ hasText: /trade/ }).waitFor()]);
    if (await prompt.isVisible()) {
      await prompt.fill(TOKEN);
      await page.getByTestId('token-submit').click();
    }
    await page.getByTestId('trades-total').filter({ hasText: /trade/ }).waitFor();
  }

  /** Resolves in the page a task later: a message to itself, since its setTimeout waits for the stopped clock. */
  const taskLater = () =>
    new Promise<void>((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve();
      channel.port2.postMessage(undefined);
    });

  const row = (page: Page, order: string) => page.getByTestId('trade-row').filter({ hasText: order });

  it('asks for the admin token, refuses a wrong one, and keeps the right one for the tab', async () => {
    const watched = desktop;
    const { page } = watched;
    await forgetStorage(page, sandbox.url);
    await page.goto(`${sandbox.url}/_sandbox/`);
    await page.getByTestId('token-input').waitFor();
    expect(await page.getByTestId('login-error').textContent()).toContain('--admin-token');
    await screenshot(page, 'dashboard-login-desktop');
    await page.getByTestId('token-input').fill('wrong-token');
    await page.getByTestId('token-submit').click();
    await page.getByTestId('login-error').filter({ hasText: 'refused this token' }).waitFor();
    await page.getByTestId('token-input').fill(TOKEN);
    await page.getByTestId('token-submit').click();
    await page.getByTestId('trades-total').filter({ hasText: /trade/ }).waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('deposit-sandbox.admin-token'))).toBe(TOKEN);
    await page.reload();
    await page.getByTestId('trades-total').filter({ hasText: /trade/ }).waitFor();
    expect(await page.getByTestId('login').isHidden()).toBe(true);
    await expectClean(watched, /401/);
  });

  /**
   * Sets `page` up so that the sign-in with "wrong-token" overlaps a poll: the sign-in's first
   * call (GET merchants) waits until a poll has sent its calls with that token, and those are
   * held until `release()`. `held` holds each held call's answer, read to the end.
   */
  async function holdWrongTokenPolls(page: Page): Promise<{ release: () => void; held: Promise<unknown>[] }> {
    let pollSent!: () => void;
    let release!: () => void;
    const sent = new Promise<void>((resolve) => (pollSent = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const wrong = (route: Route) => route.request().headers()['authorization'] === 'Bearer wrong-token';
    await page.route(`${sandbox.url}/_sandbox/merchants`, async (route) => {
      if (wrong(route)) await sent;
      await route.continue();
    });
    const held: Promise<unknown>[] = [];
    await page.route(/\/_sandbox\/(clock|trades)/, async (route) => {
      if (wrong(route)) {
        held.push(
          route
            .request()
            .response()
            .then((response) => response?.finished()),
        );
        pollSent();
        await released;
      }
      await route.continue();
    });
    return { release, held };
  }

  it('a poll refused beside the sign-in leaves the prompt saying that the token was refused', async () => {
    const watched = desktop;
    const { page } = watched;
    await forgetStorage(page, sandbox.url);
    await page.goto(`${sandbox.url}/_sandbox/`);
    await page.getByTestId('login-error').filter({ hasText: '--admin-token' }).waitFor();
    // The poll's calls wait until the sign-in's refusal is on screen. So both are refused, the poll's last.
    const polls = await holdWrongTokenPolls(page);
    await page.getByTestId('token-input').fill('wrong-token');
    await page.getByTestId('token-submit').click();
    // The poll falls due while the sign-in waits for it.
    await page.clock.runFor(DASHBOARD_POLL_MS);
    await page.getByTestId('login-error').filter({ hasText: 'refused this token' }).waitFor();
    polls.release();
    await Promise.all(polls.held);
    // The poll's refusal has been read; the page has handled it once a task later.
    await page.evaluate(taskLater);
    expect(await page.getByTestId('login-error').textContent()).toContain('refused this token');
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    // The refused calls log their 401s; nothing else went wrong.
    await expectClean(watched, /401/);
  });

  it('a poll with the refused token answered after the right one was entered leaves the dashboard signed in with it', async () => {
    const watched = desktop;
    const { page } = watched;
    await forgetStorage(page, sandbox.url);
    await page.goto(`${sandbox.url}/_sandbox/`);
    await page.getByTestId('login-error').filter({ hasText: '--admin-token' }).waitFor();
    // The poll's calls with the wrong token are held until the right token has been entered and its calls answered.
    const stale = await holdWrongTokenPolls(page);
    await page.getByTestId('token-input').fill('wrong-token');
    await page.getByTestId('token-submit').click();
    // The poll falls due while the sign-in waits for it.
    await page.clock.runFor(DASHBOARD_POLL_MS);
    await page.getByTestId('login-error').filter({ hasText: 'refused this token' }).waitFor();
    await page.getByTestId('token-input').fill(TOKEN);
    await page.getByTestId('token-submit').click();
    await page.getByTestId('trades-total').filter({ hasText: /trade/ }).waitFor();
    stale.release();
    await Promise.all(stale.held);
    expect(stale.held.length).toBeGreaterThan(0);
    // The stale refusals have been read; the page has handled them once a task later.
    await page.evaluate(taskLater);
    expect(await page.getByTestId('login').isHidden()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem('deposit-sandbox.admin-token'))).toBe(TOKEN);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    // The refused calls log their 401s; nothing else went wrong.
    await expectClean(watched, /401/);
  });

  it('shows a newly created trade by itself and transitions it with a button', async () => {
    const { page } = desktop;
    await open(page);
    const trade = await sandbox.create({ callback_url: `${shop.url}/callbacks` });
    // The next poll shows it.
    await runClockUntil(page, DASHBOARD_POLL_MS, async () => (await row(page, trade.order).count()) === 1);
    expect(await row(page, trade.order).getByTestId('trade-state').getAttribute('data-state')).toBe('created');
    await row(page, trade.order).getByTestId('trade-order').click();
    await page.getByTestId('detail-order').filter({ hasText: trade.order }).waitFor();
    expect(await page.getByTestId('transition-confirmed').isVisible()).toBe(true);
    await page.getByTestId('transition-confirmed').click();
    await page.locator('[data-testid="detail-state"][data-state="confirmed"]').waitFor();
    expect(sandbox.sandbox.store.trades.get(trade.id)?.history.at(-1)).toMatchObject({ to: 'confirmed', cause: 'admin' });
    expect(await page.getByTestId('no-moves').textContent()).toContain('final');

    // The callback and its attempt appear with the next polls; replay sends it again.
    await shop.waitFor((request) => request.path === '/callbacks');
    await runClockUntil(page, DASHBOARD_POLL_MS, async () => (await page.getByTestId('attempt-status').filter({ hasText: '200' }).count()) > 0);
    expect(await page.getByTestId('attempt-response').first().textContent()).toBe('ok');
    await page.getByTestId('replay').first().click();
    await expect.poll(() => shop.received.filter((request) => request.path === '/callbacks').length, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
    await runClockUntil(page, DASHBOARD_POLL_MS, async () => (await page.getByTestId('callback').count()) >= 2);
    await screenshot(page, 'dashboard-detail-desktop');
    await expectClean(desktop);
  });

  it('filters trades by state and order', async () => {
    const { page } = desktop;
    const [kept, other] = [await sandbox.create(), await sandbox.create()];
    sandbox.sandbox.lifecycle.transition(kept.id, 'canceled', 'admin');
    await open(page);
    await row(page, other.order).waitFor();
    await page.getByTestId('filter-state').selectOption('canceled');
    await expect.poll(() => row(page, other.order).count()).toBe(0);
    await row(page, kept.order).waitFor();
    await page.getByTestId('filter-state').selectOption('');
    await page.getByTestId('filter-order').fill(other.order);
    await page.clock.runFor(FILTER_DELAY_MS);
    await expect.poll(() => page.getByTestId('trade-row').count()).toBe(1);
    await row(page, other.order).waitFor();
    await page.getByTestId('filter-order').fill('');
    await page.clock.runFor(FILTER_DELAY_MS);
    await expectClean(desktop);
  });

  it('advances the manual clock, which runs the steps that fell due', async () => {
    const { page } = desktop;
    const trade = await sandbox.create();
    sandbox.sandbox.scheduler.schedule('transition', sandbox.sandbox.clock.now() + 5 * 60_000, { state: 'expired' }, trade.id);
    await open(page, `#trade=${trade.id}`);
    await page.getByTestId('detail-order').filter({ hasText: trade.order }).waitFor();
    expect(await page.getByTestId('clock-mode').textContent()).toBe('manual');
    const before = sandbox.sandbox.clock.now();
    await page.getByTestId('advance-input').fill('10m');
    await page.getByTestId('advance').click();
    await page.getByTestId('message').filter({ hasText: 'Clock advanced by 10m' }).waitFor();
    expect(sandbox.sandbox.clock.now() - before).toBe(10 * 60_000);
    await page.locator('[data-testid="detail-state"][data-state="expired"]').waitFor();
    await page.getByTestId('advance-input').fill('soon');
    await page.getByTestId('advance').click();
    await page.getByTestId('message').filter({ hasText: 'duration' }).waitFor();
    await expectClean(desktop);
  });

  it('resets after a confirmation', async () => {
    const { page } = desktop;
    const trade = await sandbox.create();
    await open(page);
    await row(page, trade.order).waitFor();
    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.getByTestId('reset').click();
    expect(sandbox.sandbox.store.trades.has(trade.id)).toBe(true);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByTestId('reset').click();
    await page.getByTestId('message').filter({ hasText: 'Reset: removed' }).waitFor();
    await expect.poll(() => page.getByTestId('trade-row').count()).toBe(0);
    expect(sandbox.sandbox.store.trades.size).toBe(0);
    await expectClean(desktop);
  });

  it('is usable on a phone', async () => {
    const watched = await openPage(browser, PHONE);
    const trade = await sandbox.create({ type: 'nspk' });
    await open(watched.page, `#trade=${trade.id}`);
    await watched.page.getByTestId('detail-order').filter({ hasText: trade.order }).waitFor();
    expect(await watched.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(watched.page, 'dashboard-phone');
    await expectClean(watched);
    await watched.context.close();
  });
});
