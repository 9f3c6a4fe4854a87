import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seriousViolations, sidewaysOverflow } from './axe.js';
import { describeBrowser, DESKTOP, expectClean, launchBrowser, openPage, PHONE, screenshot } from './browser.js';
import { serveSandbox, type ServedSandbox } from './servers.js';

const TOKEN = 'qa-admin-token';
const LANGS = ['ru', 'en'] as const;
const VIEWPORTS = { desktop: DESKTOP, phone: PHONE } as const;

/**
 * Every page in both languages, on a desktop and on a 390x844 phone: axe-core finds no
 * serious or critical violation, nothing scrolls sideways, <html lang> is the language, and
 * a screenshot of each is kept in test-artifacts/screenshots/.
 */
describeBrowser('pages are accessible and fit a phone, in Russian and English', () => {
  let browser: Browser;
  let sandbox: ServedSandbox;
  const urls: Record<string, string> = {};

  beforeAll(async () => {
    [browser, sandbox] = await Promise.all([launchBrowser(), serveSandbox({ adminToken: TOKEN })]);
    const p2p = await sandbox.create({ order: 'a11y-any-bank' });
    const nspk = await sandbox.create({ order: 'a11y-nspk', type: 'nspk' });
    const ecom = await sandbox.create({ order: 'a11y-ecom' }, 'build');
    const paid = await sandbox.create({ order: 'a11y-paid' });
    const expiring = await sandbox.create({ order: 'a11y-deadline' });
    sandbox.sandbox.lifecycle.transition(paid.id, 'confirmed', 'admin');
    sandbox.sandbox.scheduler.schedule('transition', sandbox.sandbox.clock.now() + 15 * 60_000, { state: 'expired' }, expiring.id);
    Object.assign(urls, {
      'pay-any-bank': p2p.payment_data.url,
      'pay-nspk': nspk.payment_data.url,
      'pay-ecom': ecom.payment_data.url,
      'pay-deadline': expiring.payment_data.url,
      result: `${paid.payment_data.url}/result`,
      'not-found': `${sandbox.url}/pay/00000000-0000-4000-8000-000000000000`,
    });
    urls['challenge'] = ecom.payment_data.url;
  });

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  async function check(page: Page, name: string, lang: string): Promise<void> {
    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    expect(await seriousViolations(page), name).toEqual([]);
    expect(await sidewaysOverflow(page), `${name} scrolls sideways`).toBeLessThanOrEqual(0);
    await screenshot(page, name);
  }

  for (const lang of LANGS) {
    for (const [device, options] of Object.entries(VIEWPORTS)) {
      it(`payment-side pages, ${lang}, ${device}`, async () => {
        const watched = await openPage(browser, options);
        const { page } = watched;
        for (const kind of ['pay-any-bank', 'pay-nspk', 'pay-ecom', 'pay-deadline', 'result', 'not-found']) {
          await page.goto(`${urls[kind]}?lang=${lang}`);
          if (kind === 'pay-ecom') await page.getByTestId('test-cards').locator('summary').click();
          await check(page, `${kind}-${lang}-${device}`, lang);
        }
        await page.goto(`${urls['challenge']}?lang=${lang}`);
        await page.getByTestId('card-number').fill('4000 0000 0000 3220');
        await page.getByTestId('card-expiry').fill('12/40');
        await page.getByTestId('card-cvc').fill('123');
        await page.getByTestId('pay').click();
        await page.getByTestId('3ds-code').waitFor();
        await check(page, `3ds-${lang}-${device}`, lang);
        await page.goto(`${urls['pay-ecom']}?lang=${lang}`);
        await page.getByTestId('pay').click();
        await page.getByTestId('error-number').waitFor();
        await check(page, `pay-ecom-errors-${lang}-${device}`, lang);
        await expectClean(watched);
        await watched.context.close();
      });

      it(`dashboard, ${lang}, ${device}`, async () => {
        const watched = await openPage(browser, options);
        const { page } = watched;
        await page.goto(`${sandbox.url}/_sandbox/${lang === 'ru' ? '?lang=ru' : ''}`);
        await page.getByTestId('token-input').fill(TOKEN);
        await page.getByTestId('token-submit').click();
        await page.getByTestId('trade-row').first().waitFor();
        await page.getByTestId('trade-order').first().click();
        await page.getByTestId('trade-detail').waitFor();
        await check(page, `dashboard-${lang}-${device}`, lang);
        await expectClean(watched);
        await watched.context.close();
      });
    }
  }

  it('every control of the payment page and the 3-D Secure step works from the keyboard alone', async () => {
    const watched = await openPage(browser, DESKTOP);
    const { page } = watched;
    const trade = await sandbox.create({ order: 'a11y-keyboard' }, 'build');
    await page.goto(`${trade.payment_data.url}?lang=ru`);
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? '');
    const tabTo = async (testid: string) => {
      for (let i = 0; i < 20 && (await focused()) !== testid; i++) await page.keyboard.press('Tab');
      expect(await focused()).toBe(testid);
    };
    await tabTo('card-number');
    await page.keyboard.type('4000000000003220');
    await tabTo('card-expiry');
    await page.keyboard.type('1240');
    await tabTo('card-cvc');
    await page.keyboard.type('123');
    await tabTo('pay');
    await page.keyboard.press('Enter');
    await page.getByTestId('3ds-code').waitFor();
    await tabTo('3ds-code');
    await page.keyboard.type('1111');
    await page.keyboard.press('Enter');
    await page.getByTestId('result-title').waitFor();
    expect(sandbox.sandbox.store.trades.get(trade.id)?.state).toBe('confirmed');
    await expectClean(watched);
    await watched.context.close();
  });
});
