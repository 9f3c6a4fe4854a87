import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { formatClockTime, formatDateTime } from '../../src/pages/format.js';
import { describeBrowser, DESKTOP, expectClean, launchBrowser, openPage, PHONE, runClockUntil, screenshot, STATUS_POLL_MS } from './browser.js';
import { serveSandbox, type ServedSandbox } from './servers.js';

/**
 * The deadline on a P2P page on a manual clock: "pay before HH:MM" in the payer's time zone (UTC,
 * sandbox time, in its title), a time left that moves only when the sandbox clock is advanced
 * (the page says so), and the page turns into the expired result by itself once the expiry step runs.
 */
describeBrowser('deadline on the payment page in Chromium', () => {
  let browser: Browser;
  let sandbox: ServedSandbox;

  beforeAll(async () => {
    [browser, sandbox] = await Promise.all([launchBrowser(), serveSandbox({ clock: 'manual' })]);
  });

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  const advance = async (by: string) => {
    const res = await fetch(`${sandbox.url}/_sandbox/clock/advance`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ by }) });
    expect(res.status).toBe(200);
  };

  /** A trade whose scheduled step expires it 15 minutes of sandbox time from now, and that time. */
  const expiring = async (order: string) => {
    const trade = await sandbox.create({ order });
    const due = sandbox.sandbox.clock.now() + 15 * 60_000;
    sandbox.sandbox.scheduler.schedule('transition', due, { state: 'expired' }, trade.id);
    return { trade, due };
  };

  for (const [lang, device, timezoneId, payBefore] of [
    ['ru', PHONE, 'Europe/Moscow', 'Оплатите до'],
    ['en', DESKTOP, 'America/New_York', 'Pay before'],
  ] as const) {
    it(`${lang}, ${timezoneId}: pay before HH:MM in the payer's zone, the UTC time in its title`, async () => {
      const { trade, due } = await expiring(`deadline-zone-${lang}`);
      const watched = await openPage(browser, { ...device, timezoneId });
      const { page } = watched;
      await page.goto(`${trade.payment_data.url}?lang=${lang}`);
      const local = formatClockTime(due, lang, timezoneId);
      // Neither zone is UTC at any time of year, so the local time is another text than the server's.
      expect(local).not.toBe(formatClockTime(due, lang));
      expect(local).not.toContain('UTC');
      await expect.poll(() => page.getByTestId('deadline').textContent()).toBe(`${payBefore} ${local}`);
      const time = page.getByTestId('deadline-time');
      expect(await time.getAttribute('title')).toBe(formatDateTime(due, lang));
      expect(await time.getAttribute('title')).toMatch(/ UTC$/);
      expect(await time.getAttribute('datetime')).toBe(new Date(due).toISOString());
      await screenshot(page, `deadline-zone-${lang}`);
      await expectClean(watched);
      await watched.context.close();
    });
  }

  it('without script the deadline stays in UTC, as the server wrote it', async () => {
    const { trade, due } = await expiring('deadline-no-script');
    const context = await browser.newContext({ ...PHONE, timezoneId: 'Europe/Moscow', javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${trade.payment_data.url}?lang=ru`);
    expect(await page.getByTestId('deadline').textContent()).toBe(`Оплатите до ${formatClockTime(due, 'ru')}`);
    expect(await page.getByTestId('deadline-time').getAttribute('title')).toBe(formatDateTime(due, 'ru'));
    await context.close();
  });

  for (const [lang, device, name, payBefore, expired] of [
    ['ru', PHONE, 'phone', 'Оплатите до', 'Время на оплату истекло'],
    ['en', DESKTOP, 'desktop', 'Pay before', 'Time to pay has expired'],
  ] as const) {
    it(`${lang}, ${name}: pay before HH:MM, time left moves with the sandbox clock, then the expired result`, async () => {
      const { trade, due } = await expiring(`deadline-${lang}`);
      const watched = await openPage(browser, device);
      const { page } = watched;
      await page.goto(`${trade.payment_data.url}?lang=${lang}`);
      expect(await page.getByTestId('deadline').textContent()).toBe(`${payBefore} ${formatClockTime(due, lang)}`);
      expect(await page.getByTestId('time-left').textContent()).toBe('15:00');
      expect(await page.getByTestId('manual-clock').isVisible()).toBe(true);
      await screenshot(page, `deadline-${lang}-${name}`);

      // The page's status checks, every STATUS_POLL_MS of its clock, bring the advances.
      await advance('5m');
      await runClockUntil(page, STATUS_POLL_MS, async () => (await page.getByTestId('time-left').textContent()) === '10:00');
      await advance('10m');
      await runClockUntil(page, STATUS_POLL_MS, async () => (await page.getByTestId('result-title').filter({ hasText: expired }).count()) === 1);
      expect(await page.getByTestId('state').getAttribute('data-state')).toBe('expired');
      // The badge speaks the page's language.
      expect(await page.getByTestId('state').textContent()).toBe(lang === 'ru' ? 'истекла' : 'expired');
      expect(await page.getByTestId('result-icon').getAttribute('data-icon')).toBe('expired');
      await screenshot(page, `deadline-expired-${lang}-${name}`);
      await expectClean(watched);
      await watched.context.close();
    });
  }
});
