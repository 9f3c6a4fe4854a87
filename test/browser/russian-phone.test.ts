import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBrowser, DESKTOP, expectClean, launchBrowser, openPage, PHONE, screenshot } from './browser.js';
import { serveSandbox, startShop, type ServedSandbox, type Shop } from './servers.js';

/**
 * The Russian payer and QA on a 390 px phone: state badges and payment types in Russian, the
 * SBP page's QR caption, the 3-D Secure step's language switch, expiry and CVC on one line,
 * and the dashboard's tables scrolling inside their panels instead of clipping. Screenshots go
 * to test-artifacts/screenshots/ (ru-phone-*).
 */

/** English state and type words that a Russian page must not show (outside the switch and the requisites). */
const ENGLISH_WORDS = /\b(created|ecom|confirmed|canceled|expired|any_bank|nspk|pending|delivered|failed|Merchant)\b/;

/** The page's visible text without the language switch and the P2P requisites (names and numbers as they are). */
const visibleText = (page: Page) =>
  page.evaluate(() => {
    const copy = document.body.cloneNode(true) as HTMLElement;
    for (const skip of copy.querySelectorAll('.langs, dl.requisites, .mono, script, style')) skip.remove();
    document.body.append(copy);
    copy.style.position = 'absolute';
    // biome-ignore lint/performance/useDomNodeTextContent: the visible text, as a payer reads it
    const text = copy.innerText;
    copy.remove();
    return text;
  });

const noPageOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describeBrowser('Russian pages on a 390 px phone', () => {
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

  it('the result page says the state and the payment type in Russian', async () => {
    const trade = await sandbox.create({ order: 'ru-result-1' });
    const watched = await openPage(browser, PHONE);
    const { page } = watched;
    await page.goto(`${trade.payment_data.url}?lang=ru`);
    await page.getByTestId('pay').click();
    await page.getByTestId('state').waitFor();
    expect(await page.getByTestId('state').getAttribute('data-state')).toBe('confirmed');
    expect(await page.getByTestId('state').textContent()).toBe('оплачена');
    expect(await page.getByTestId('trade-type').textContent()).toBe('перевод на карту');
    const text = await visibleText(page);
    expect(text).not.toMatch(ENGLISH_WORDS);
    expect(await noPageOverflow(page)).toBe(true);
    await screenshot(page, 'ru-phone-result');
    await expectClean(watched);
    await watched.context.close();
  });

  it('the SBP page says what its QR code is for in a sandbox, without promising a bank app will fill it in', async () => {
    const trade = await sandbox.create({ order: 'ru-sbp-1', type: 'nspk' });
    const watched = await openPage(browser, PHONE);
    const { page } = watched;
    await page.goto(`${trade.payment_data.url}?lang=ru`);
    const caption = (await page.locator('.sbp-qr figcaption').textContent()) ?? '';
    expect(caption).toContain('В песочнице он нужен тестам');
    expect(caption).not.toMatch(/заполнятся сами|Отсканируйте в приложении банка/);
    expect(await visibleText(page)).not.toMatch(ENGLISH_WORDS);
    expect(await noPageOverflow(page)).toBe(true);
    await screenshot(page, 'ru-phone-sbp');
    await expectClean(watched);
    await watched.context.close();
  });

  it('the card form lines up expiry and CVC; the 3-D Secure step has the language switch and keeps the step', async () => {
    const trade = await sandbox.create({ order: 'ru-3ds-1', return_url: `${shop.url}/back` }, 'build');
    const watched = await openPage(browser, PHONE);
    const { page } = watched;
    await page.goto(`${trade.payment_data.url}?lang=ru`);
    const [expiry, cvc] = await Promise.all([page.getByTestId('card-expiry').boundingBox(), page.getByTestId('card-cvc').boundingBox()]);
    expect(expiry!.y).toBe(cvc!.y);
    expect(expiry!.height).toBe(cvc!.height);
    expect(await noPageOverflow(page)).toBe(true);
    expect(await visibleText(page)).not.toMatch(ENGLISH_WORDS);
    await screenshot(page, 'ru-phone-card-form');

    await page.getByTestId('card-number').fill('4000000000003220');
    await page.getByTestId('card-expiry').fill('12/40');
    await page.getByTestId('card-cvc').fill('123');
    await page.getByTestId('pay').click();
    await page.getByTestId('3ds-code').waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('ru');
    await screenshot(page, 'ru-phone-3ds');
    await page.getByTestId('lang-en').click();
    await page.getByTestId('3ds-code').waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await page.getByTestId('3ds').textContent()).toContain('4000 •••• 3220');
    expect(sandbox.sandbox.store.trades.get(trade.id)?.state).toBe('ecom');
    await page.getByTestId('3ds-code').fill('1111');
    await page.getByTestId('3ds-submit').click();
    await page.waitForURL(`${shop.url}/back`);
    expect(sandbox.sandbox.store.trades.get(trade.id)?.state).toBe('confirmed');
    await expectClean(watched);
    await watched.context.close();
  });

  it('the Russian dashboard: tables scroll inside their panels, nothing clips the page, one word for merchant', async () => {
    const trade = await sandbox.create({ order: 'ru-dashboard-order-with-a-long-name-1', callback_url: `${shop.url}/callback` });
    await fetch(`${sandbox.url}/_sandbox/trades/${trade.id}/transition`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"state":"confirmed"}' });
    const watched = await openPage(browser, PHONE);
    const { page } = watched;
    await page.goto(`${sandbox.url}/_sandbox/?lang=ru#trade=${trade.id}`);
    await page.getByTestId('detail-order').filter({ hasText: trade.order }).waitFor();
    await page.getByTestId('report-refresh').click();
    await page.getByTestId('report-result').locator('*').first().waitFor();
    await page.getByTestId('scenarios').locator('*').first().waitFor();
    expect(await noPageOverflow(page)).toBe(true);
    // Every table fits its panel, or sits in a box that scrolls sideways inside the panel.
    const clipped = await page.evaluate(() =>
      [...document.querySelectorAll('.panel table')].flatMap((table) => {
        const panel = table.closest('.panel')!;
        for (let box = table.parentElement; box && box !== panel; box = box.parentElement) {
          if (['auto', 'scroll'].includes(getComputedStyle(box).overflowX)) return [];
        }
        if (['auto', 'scroll'].includes(getComputedStyle(table).overflowX)) return [];
        const over = table.getBoundingClientRect().right - panel.getBoundingClientRect().right;
        return over > 1 ? [`${table.getAttribute('data-testid') ?? table.className} in ${panel.className}: ${Math.round(over)} px past the panel`] : [];
      }),
    );
    expect(clipped).toEqual([]);
    // biome-ignore lint/performance/useDomNodeTextContent: the visible text, as QA reads it
    expect(await page.evaluate(() => document.body.innerText)).not.toMatch(/Мерчант|мерчант/);
    await screenshot(page, 'ru-phone-dashboard');
    await expectClean(watched);
    await watched.context.close();
  });

  it('the Russian dashboard says states, payment types and callback statuses in Russian, keeping the raw values in data attributes', async () => {
    const trade = await sandbox.create({ order: 'ru-dashboard-words-1', type: 'any_bank', callback_url: `${shop.url}/callback` });
    await fetch(`${sandbox.url}/_sandbox/trades/${trade.id}/transition`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"state":"confirmed"}' });
    const watched = await openPage(browser, PHONE);
    const { page } = watched;
    await page.goto(`${sandbox.url}/_sandbox/?lang=ru#trade=${trade.id}`);
    const row = page.getByTestId('trade-row').filter({ hasText: trade.order });
    await row.locator('[data-testid="trade-state"][data-state="confirmed"]').waitFor();
    await page.locator('[data-testid="detail-state"][data-state="confirmed"]').waitFor();
    await page.locator('[data-testid="callback-status"][data-status="delivered"]').waitFor();
    await page.getByTestId('report-refresh').click();
    await page.getByTestId('coverage-row').first().waitFor();
    await page.getByTestId('scenarios').locator('table').waitFor();

    expect(await row.getByTestId('trade-state').textContent()).toBe('оплачена');
    expect(await row.getByTestId('trade-type').getAttribute('data-type')).toBe('any_bank');
    expect(await row.getByTestId('trade-type').textContent()).toBe('перевод на карту');
    expect(await page.getByTestId('detail-type').textContent()).toBe('перевод на карту');
    expect(await page.getByTestId('callback-status').first().textContent()).toBe('доставлен');
    expect(await page.getByTestId('history-to').evaluateAll((badges) => badges.map((b) => [b.getAttribute('data-state'), b.textContent]))).toEqual([
      ['created', 'ожидает оплаты'],
      ['confirmed', 'оплачена'],
    ]);
    expect(await page.getByTestId('filter-state').locator('option').allTextContents()).toEqual(['любое состояние', 'ожидает оплаты', 'ожидает оплаты картой', 'оплачена', 'отменена', 'истекла']);
    expect(await page.getByTestId('scenario-does').first().textContent()).toBe('«оплачена» через 5 с');
    const text = await visibleText(page);
    expect(text.match(new RegExp(`.{0,40}${ENGLISH_WORDS.source}.{0,40}`, 'g')) ?? []).toEqual([]);
    await screenshot(page, 'ru-phone-dashboard-words');
    await expectClean(watched);
    await watched.context.close();
  });

  it('the New trade selects are wide enough for their options on a desktop', async () => {
    const watched = await openPage(browser, DESKTOP);
    const { page } = watched;
    await page.goto(`${sandbox.url}/_sandbox/?lang=ru`);
    await page.getByTestId('new-merchant').locator('option').first().waitFor({ state: 'attached' });
    await page.getByTestId('new-scenario').locator('option').nth(1).waitFor({ state: 'attached' });
    const truncated = await page.evaluate(() => {
      const canvas = document.createElement('canvas').getContext('2d')!;
      return [...document.querySelectorAll<HTMLSelectElement>('form.new-trade select')].flatMap((select) => {
        const style = getComputedStyle(select);
        canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        // The text box: the width less the padding and the drop-down arrow (about 20 px).
        const room = select.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight) - 20;
        return [...select.options]
          .filter((option) => canvas.measureText(option.text).width > room)
          .map((option) => `${select.id}: "${option.text}" needs ${Math.ceil(canvas.measureText(option.text).width)} px, has ${Math.floor(room)}`);
      });
    });
    expect(truncated).toEqual([]);
    await screenshot(page, 'ru-desktop-new-trade');
    await expectClean(watched);
    await watched.context.close();
  });
});
