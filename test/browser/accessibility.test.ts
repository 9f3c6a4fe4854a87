import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clientBundle } from '../../src/pages/client-bundle.js';
import { seriousViolations, sidewaysOverflow } from './axe.js';
import { describeBrowser, DESKTOP, expectClean, forgetStorage, launchBrowser, openPage, PHONE, screenshot, signIn, type WatchedPage } from './browser.js';
import { serveSandbox, type ServedSandbox } from './servers.js';

const TOKEN = 'qa-admin-token';
const LANGS = ['ru', 'en'] as const;
/** The language axe checks the pages in; the other is held to its lang and its overflow. */
const AXE_LANG = 'ru';
const SIZES = { phone: PHONE.viewport!, desktop: DESKTOP.viewport! } as const;

/**
 * Every page in both languages, on a 390x844 phone and on a desktop: axe-core finds no
 * serious or critical violation, nothing scrolls sideways and <html lang> is the language.
 *
 * axe runs once per page and size, in Russian: the language changes the words, not the
 * colours, the markup or the stylesheets, so the English page is held to its lang and to not
 * scrolling sideways (its words are other lengths) without a second axe run.
 *
 * Each page is loaded once per language, in a phone context, and checked at both sizes by
 * resizing the viewport. The viewport does change what axe finds (the stylesheets' @media rules
 * shrink fonts, which moves the contrast threshold, hide the dashboard's wide-only columns and
 * make tables scroll inside their panels), so axe runs at each size; but the markup does not
 * depend on it: the server renders one HTML for every viewport and the pages' scripts never read
 * the viewport (the first test below holds the built scripts to that), so a resized page is laid
 * out and styled as one loaded at that size. (Headless Chromium hides scrollbars, and the pages'
 * viewport meta is width=device-width, so the phone context's mobile emulation lays 1280 px out
 * as a desktop does.) Loading and preparing a page and injecting axe into it cost more than a run of axe.
 */
describeBrowser('pages are accessible and fit a phone, in Russian and English', () => {
  let browser: Browser;
  let sandbox: ServedSandbox;
  /** The pages' tab: one phone context for the file, resized for the desktop checks; the dashboard starts afresh in it (forgetStorage). */
  let phone: WatchedPage;
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
    phone = await openPage(browser, PHONE);
  });

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  async function check(page: Page, name: string, lang: string): Promise<void> {
    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    if (lang === AXE_LANG) expect(await seriousViolations(page), name).toEqual([]);
    expect(await sidewaysOverflow(page), `${name} scrolls sideways`).toBeLessThanOrEqual(0);
    await screenshot(page, name);
  }

  /** Checks the page as it is at the phone size, then at the desktop size, then goes back to the phone. */
  async function checkBothSizes(page: Page, name: string, lang: string): Promise<void> {
    for (const [device, size] of Object.entries(SIZES)) {
      await page.setViewportSize(size);
      // The layout viewport is the size asked for (what the stylesheets' @media rules see).
      expect(await page.evaluate(() => [window.innerWidth, document.documentElement.clientWidth])).toEqual([size.width, size.width]);
      await check(page, `${name}-${lang}-${device}`, lang);
    }
    await page.setViewportSize(SIZES.phone);
  }

  it("the pages' scripts do not read the viewport, so a resized page is one loaded at that size", () => {
    const viewportReaders = /matchMedia|innerWidth|innerHeight|outerWidth|outerHeight|clientWidth|offsetWidth|getBoundingClientRect|visualViewport|\bscreen\.|orientation|["'`]resize["'`]/g;
    for (const bundle of ['pay.js', 'dashboard.js'] as const) expect(clientBundle(bundle).match(viewportReaders), bundle).toBeNull();
  });

  /** How each payment-side page is reached, in the language asked for. */
  const PAGES: Record<string, (page: Page, lang: string) => Promise<unknown>> = {
    'pay-any-bank': (page, lang) => page.goto(`${urls['pay-any-bank']}?lang=${lang}`),
    'pay-nspk': (page, lang) => page.goto(`${urls['pay-nspk']}?lang=${lang}`),
    'pay-ecom': async (page, lang) => {
      await page.goto(`${urls['pay-ecom']}?lang=${lang}`);
      await page.getByTestId('test-cards').locator('summary').click();
    },
    'pay-deadline': (page, lang) => page.goto(`${urls['pay-deadline']}?lang=${lang}`),
    result: (page, lang) => page.goto(`${urls['result']}?lang=${lang}`),
    'not-found': (page, lang) => page.goto(`${urls['not-found']}?lang=${lang}`),
    '3ds': async (page, lang) => {
      await page.goto(`${urls['challenge']}?lang=${lang}`);
      await page.getByTestId('card-number').fill('4000 0000 0000 3220');
      await page.getByTestId('card-expiry').fill('12/40');
      await page.getByTestId('card-cvc').fill('123');
      await page.getByTestId('pay').click();
      await page.getByTestId('3ds-code').waitFor();
    },
    'pay-ecom-errors': async (page, lang) => {
      await page.goto(`${urls['pay-ecom']}?lang=${lang}`);
      await page.getByTestId('pay').click();
      await page.getByTestId('error-number').waitFor();
    },
  };

  for (const lang of LANGS) {
    const checks = lang === AXE_LANG ? 'axe, lang and overflow' : 'lang and overflow';
    for (const [name, reach] of Object.entries(PAGES)) {
      it(`${name}, ${lang}, phone and desktop: ${checks}`, async () => {
        await reach(phone.page, lang);
        await checkBothSizes(phone.page, name, lang);
        await expectClean(phone);
      });
    }

    it(`dashboard, ${lang}, phone and desktop: ${checks}`, async () => {
      const watched = phone;
      const { page } = watched;
      await forgetStorage(page, sandbox.url);
      await signIn(page, `${sandbox.url}/_sandbox/${lang === 'ru' ? '?lang=ru' : ''}`, TOKEN);
      await page.getByTestId('trade-row').first().waitFor();
      await page.getByTestId('trade-order').first().click();
      await page.getByTestId('trade-detail').waitFor();
      // The panels closed as served are opened, so their contents are checked too.
      for (const panel of ['check', 'report', 'scenarios']) await page.getByTestId(`${panel}-open`).click();
      await page.getByTestId('scenario-row').first().waitFor();
      await checkBothSizes(page, 'dashboard', lang);
      await expectClean(watched);
    });
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
