import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO, ecomBody, p2pBody } from '../support.js';
import { DASHBOARD_POLL_MS, describeBrowser, DESKTOP, expectClean, forgetStorage, launchBrowser, openPage, PHONE, runClockUntil, screenshot, type WatchedPage } from './browser.js';
import { serveSandbox, startShop, type ServedSandbox, type Shop } from './servers.js';

/**
 * The Russian payer and QA on a 390 px phone: state badges and payment types in Russian, the
 * SBP page's QR caption, the 3-D Secure step's language switch, expiry and CVC on one line,
 * and the dashboard's tables scrolling inside their panels instead of clipping. With
 * SCREENSHOTS=1, screenshots go to test-artifacts/screenshots/ (ru-phone-*).
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
  /** The phone tab: each test loads its own trade's page, or the dashboard afresh (forgetStorage), in it. */
  let payer: WatchedPage;

  beforeAll(async () => {
    [browser, sandbox, shop] = await Promise.all([launchBrowser(), serveSandbox(), startShop()]);
    payer = await openPage(browser, PHONE);
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([sandbox?.close(), shop?.close()]);
  });

  it('the result page says the state and the payment type in Russian', async () => {
    const trade = await sandbox.create({ order: 'ru-result-1' });
    const watched = payer;
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
  });

  it('the SBP page says what its QR code is for in a sandbox, without promising a bank app will fill it in', async () => {
    const trade = await sandbox.create({ order: 'ru-sbp-1', type: 'nspk' });
    const watched = payer;
    const { page } = watched;
    await page.goto(`${trade.payment_data.url}?lang=ru`);
    const caption = (await page.locator('.sbp-qr figcaption').textContent()) ?? '';
    expect(caption).toContain('В песочнице он нужен тестам');
    expect(caption).not.toMatch(/заполнятся сами|Отсканируйте в приложении банка/);
    expect(await visibleText(page)).not.toMatch(ENGLISH_WORDS);
    expect(await noPageOverflow(page)).toBe(true);
    await screenshot(page, 'ru-phone-sbp');
    await expectClean(watched);
  });

  it('the card form lines up expiry and CVC; the 3-D Secure step has the language switch and keeps the step', async () => {
    const trade = await sandbox.create({ order: 'ru-3ds-1', return_url: `${shop.url}/back` }, 'build');
    const watched = payer;
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
  });

  it('the Russian dashboard: tables scroll inside their panels, nothing clips the page, one word for merchant', async () => {
    const trade = await sandbox.create({ order: 'ru-dashboard-order-with-a-long-name-1', callback_url: `${shop.url}/callback` });
    await fetch(`${sandbox.url}/_sandbox/trades/${trade.id}/transition`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"state":"confirmed"}' });
    const watched = payer;
    const { page } = watched;
    await forgetStorage(page, sandbox.url);
    await page.goto(`${sandbox.url}/_sandbox/?lang=ru#trade=${trade.id}`);
    await page.getByTestId('detail-order').filter({ hasText: trade.order }).waitFor();
    // The panels QA opens when needed are closed as served: their headings open them.
    for (const panel of ['check', 'report', 'scenarios']) await page.getByTestId(`${panel}-open`).click();
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
  });

  it('the Russian dashboard says states, payment types and callback statuses in Russian, keeping the raw values in data attributes', async () => {
    const trade = await sandbox.create({ order: 'ru-dashboard-words-1', type: 'any_bank', callback_url: `${shop.url}/callback` });
    await fetch(`${sandbox.url}/_sandbox/trades/${trade.id}/transition`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"state":"confirmed"}' });
    const watched = payer;
    const { page } = watched;
    await forgetStorage(page, sandbox.url);
    await page.goto(`${sandbox.url}/_sandbox/?lang=ru#trade=${trade.id}`);
    const row = page.getByTestId('trade-row').filter({ hasText: trade.order });
    await row.locator('[data-testid="trade-state"][data-state="confirmed"]').waitFor();
    await page.locator('[data-testid="detail-state"][data-state="confirmed"]').waitFor();
    // The callback may still be on its way when the page loads: the polls show it delivered.
    await runClockUntil(page, DASHBOARD_POLL_MS, async () => (await page.locator('[data-testid="callback-status"][data-status="delivered"]').count()) > 0);
    for (const panel of ['report', 'scenarios']) await page.getByTestId(`${panel}-open`).click();
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
  });

  it('the Russian dashboard says the scenarios, a trade history and the report (mistakes, coverage details, notes) in Russian', async () => {
    // A receiver that refuses every callback, so a callback is never acknowledged.
    const refusing = createServer((_req, res) => void res.writeHead(500).end('down'));
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const refusingUrl = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/callback`;
    const post = (path: string, body: unknown, headers: Record<string, string> = { 'X-Auth': DEMO.token }) =>
      fetch(`${sandbox.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const form = (path: string, fields: Record<string, string>) =>
      fetch(`${sandbox.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(), redirect: 'manual' });
    try {
      // The merchant's mistakes: a wrong token, an invalid field, an order used twice, a forged callback accepted, callbacks refused.
      expect((await post('/api/v1/trades/deposit/create', p2pBody({ order: 'ru-words-401' }), { 'X-Auth': 'not-the-token' })).status).toBe(401);
      expect((await post('/api/v1/trades/deposit/create', p2pBody({ order: 'ru-words-422', amount_cents: -1 }))).status).toBe(422);
      await sandbox.create({ order: 'ru-words-twice' });
      expect((await post('/api/v1/trades/deposit/create', p2pBody({ order: 'ru-words-twice' }))).status).toBe(422);
      await sandbox.create({ order: 'sbx-badsig-ru-words', callback_url: `${shop.url}/callback` });
      const refused = await sandbox.create({ order: 'ru-words-refused', callback_url: refusingUrl });
      await post(`/_sandbox/trades/${refused.id}/transition`, { state: 'confirmed' }, {});
      // A lost create answer, retried with the same order.
      await post('/api/v1/trades/deposit/create', p2pBody({ order: 'sbx-lost-ru-words' })).catch(() => undefined);
      expect((await post('/api/v1/trades/deposit/create', p2pBody({ order: 'sbx-lost-ru-words' }))).status).toBe(422);
      // History notes: a scenario's step, "I have paid" on the page, a 3-D Secure step failed.
      const scenario = await sandbox.create({ order: 'sbx-confirm-ru-words' });
      const paid = await sandbox.create({ order: 'ru-words-paid' });
      expect((await form(`/pay/${paid.id}/pay`, {})).status).toBe(303);
      const declined = await sandbox.create(ecomBody({ order: 'ru-words-3ds' }), 'build');
      expect((await form(`/pay/${declined.id}/pay`, { number: '4000000000003220', expiry: '12/40', cvc: '123' })).status).toBe(200);
      expect((await form(`/pay/${declined.id}/3ds`, { card: '4000000000003220', code: '0000' })).status).toBe(303);
      // Sustained polling: a note, not a mistake.
      for (let read = 0; read < 61; read++) await fetch(`${sandbox.url}/api/v1/trades/${DEMO.id}/${paid.id}`, { headers: { 'X-Token': DEMO.token } });
      // The steps fall due: the scenario's confirmation, the forged copy and every retry of the refused callback.
      expect((await post('/_sandbox/clock/advance', { by: '15m' }, {})).status).toBe(200);
      await sandbox.sandbox.callbacks.idle();

      const watched = payer;
      const { page } = watched;
      await forgetStorage(page, sandbox.url);
      await page.goto(`${sandbox.url}/_sandbox/?lang=ru#trade=${declined.id}`);
      await page.getByTestId('history-note').filter({ hasText: 'Тестовая карта' }).waitFor();
      for (const panel of ['report', 'scenarios']) await page.getByTestId(`${panel}-open`).click();
      await page.getByTestId('report-refresh').click();
      await page.getByTestId('report-note').first().waitFor();
      await page.getByTestId('scenario-row').first().waitFor();

      // The scenarios: trigger, description and effect in Russian; the raw prefix as it is.
      const confirm = page.locator('[data-testid="scenario-row"][data-name="confirm"]');
      expect(await confirm.getByTestId('scenario-trigger').textContent()).toBe('order начинается с "sbx-confirm-"');
      expect(await confirm.getByTestId('scenario-description').textContent()).toBe('Плательщик платит через 5 секунд после создания сделки.');
      // A trade's history: causes and notes.
      expect(await page.getByTestId('history-cause').allTextContents()).toEqual(['создание', 'платёжная страница']);
      expect(await page.getByTestId('history-note').allTextContents()).toEqual(['', 'Тестовая карта 4000 •••• 3220: Неверный код 3-D Secure: банк отклонил платёж.']);
      const history = async (id: string) => {
        await page.evaluate((trade) => (location.hash = `#trade=${trade}`), id);
        await page.locator(`[data-testid="trade-detail"][data-id="${id}"]`).waitFor();
        return page.getByTestId('history-note').last().textContent();
      };
      expect(await history(scenario.id)).toBe('сценарий confirm');
      expect(await history(paid.id)).toBe('Плательщик нажал «Я оплатил» на платёжной странице.');
      // The report: mistake lines, coverage details and the note.
      const lines = await page.locator(`[data-testid="report-merchant"][data-merchant="${DEMO.id}"]`).getByTestId('report-line').allTextContents();
      expect(lines).toEqual([
        '401 signature_mismatch: 1',
        '422 validation_failed в поле amount_cents: 1',
        'повторные заказы: 1',
        expect.stringMatching(/^колбэки с ответом не 2xx: \d+$/),
        'колбэки, так и не подтверждённые: 1',
        'принятые поддельные колбэки: 1',
      ]);
      const coverage = page.locator(`[data-testid="coverage-merchant"][data-merchant="${DEMO.id}"]`);
      const detail = (row: string) => coverage.locator(`[data-row="${row}"]`).getByTestId('coverage-detail').textContent();
      expect(await detail('callback.confirmed')).toMatch(/^не подтверждён: \d+ попыт(ка|ки|ок) не удал(ась|ись), последняя с ответом HTTP 500$/);
      expect(await detail('callback.bad_signature')).toBe('копия с неверной X-Signature принята (HTTP 200): проверяйте подпись и отвечайте 401');
      expect(await detail('create.lost_answer')).toBe('заказ sbx-lost-ru-words повторён с тем же номером после потери ответа');
      expect(await detail('payment.3ds_declined')).toBe('Тестовая карта 4000 •••• 3220: Неверный код 3-D Secure: банк отклонил платёж.');
      expect(await page.getByTestId('report-note').first().textContent()).toMatch(/^Demo Shop: более 60 чтений сделки [0-9a-f-]{36} за минуту: дождитесь колбэка/);

      // No English word left in these panels, outside raw values: names with a digit, "_" or "-" (orders,
      // ids, error codes, field names, prefixes, headers, files), quoted values, the merchant's name and
      // the few names the API writes as they are.
      const leftover = await page.evaluate(() =>
        ['scenarios', 'trade-detail', 'report-result'].flatMap((testid) => {
          const texts: string[] = [];
          const walker = document.createTreeWalker(document.querySelector(`[data-testid="${testid}"]`)!, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (!node.parentElement?.closest('.mono, [data-testid="attempt-response"], .error-text, .warn-text')) texts.push(node.textContent ?? '');
          }
          return (
            texts
              .join(' ')
              .replace(/"[^"]*"|\S*[\d_-]\S*|\/\S+\//g, ' ')
              .match(/[A-Za-z]{2,}/g)
              ?.map((word) => `${testid}: ${word}`) ?? []
          );
        }),
      );
      // Names the API writes as they are: fields (order, customer, Callback URL, Return URL, Id), HTTP, 3-D Secure, UTC, the merchant's name.
      const RAW = new Set(['order', 'customer', 'Callback', 'Return', 'URL', 'Id', 'id', 'HTTP', 'Secure', 'admin', 'API', 'UTC', 'Demo', 'Shop']);
      expect(leftover.filter((entry) => !RAW.has(entry.split(': ')[1] ?? ''))).toEqual([]);
      expect(await noPageOverflow(page)).toBe(true);
      await screenshot(page, 'ru-phone-dashboard-texts');
      await expectClean(watched);
    } finally {
      refusing.closeAllConnections();
      await new Promise((resolve) => refusing.close(resolve));
    }
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
