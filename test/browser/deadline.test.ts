import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { formatClockTime } from '../../src/pages/format.js';
import { describeBrowser, DESKTOP, expectClean, launchBrowser, openPage, PHONE, runClockUntil, screenshot, STATUS_POLL_MS } from './browser.js';
import { serveSandbox, type ServedSandbox } from './servers.js';

/**
 * The deadline on a P2P page on a manual clock: "pay before HH:MM" in sandbox time, a time
 * left that moves only when the sandbox clock is advanced (the page says so), and the page
 * turns into the expired result by itself once the expiry step runs.
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

  for (const [lang, device, name, payBefore, expired] of [
    ['ru', PHONE, 'phone', 'Оплатите до', 'Время на оплату истекло'],
    ['en', DESKTOP, 'desktop', 'Pay before', 'Time to pay has expired'],
  ] as const) {
    it(`${lang}, ${name}: pay before HH:MM, time left moves with the sandbox clock, then the expired result`, async () => {
      const trade = await sandbox.create({ order: `deadline-${lang}` });
      const due = sandbox.sandbox.clock.now() + 15 * 60_000;
      sandbox.sandbox.scheduler.schedule('transition', due, { state: 'expired' }, trade.id);
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
