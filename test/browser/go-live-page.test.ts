/**
 * The go-live page in Chromium: reached from the dashboard's header link, it shows the checklist
 * of the coverage, then checks a receiver the user types (one that accepts everything, forged
 * callbacks included) and marks the forged-callback row wrong. In Russian too, on a phone, checked
 * by axe-core.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seriousViolations, sidewaysOverflow } from './axe.js';
import { describeBrowser, DESKTOP, expectClean, launchBrowser, openPage, PHONE, screenshot, signIn } from './browser.js';
import { serveSandbox, type ServedSandbox } from './servers.js';
import { startReceiver, type Receiver } from '../callbacks-receiver.js';

const TOKEN = 'go-live-admin-token';

describeBrowser('the go-live page in Chromium', () => {
  let browser: Browser;
  let sandbox: ServedSandbox;
  let naive: Receiver;

  beforeAll(async () => {
    [browser, sandbox, naive] = await Promise.all([launchBrowser(), serveSandbox({ adminToken: TOKEN }), startReceiver()]);
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([sandbox?.close(), naive?.close()]);
  });

  /** Signs in on the dashboard (the page uses the token it keeps for the tab) and follows the header link. */
  async function open(page: Page, lang = ''): Promise<void> {
    await signIn(page, `${sandbox.url}/_sandbox/${lang}`, TOKEN);
    await page.getByTestId('go-live-link').click();
    await page.getByTestId('go-live-row').first().waitFor();
  }

  const statuses = (page: Page) => page.getByTestId('go-live-row').evaluateAll((rows) => Object.fromEntries(rows.map((row) => [row.getAttribute('data-row'), row.getAttribute('data-status')])));

  it('shows the checklist, then checks the typed receiver: a receiver that takes forged callbacks makes that row wrong', async () => {
    const watched = await openPage(browser, DESKTOP);
    const { page } = watched;
    await open(page);
    expect(new URL(page.url()).pathname).toBe('/go-live');
    expect(await page.getByTestId('go-live-summary').textContent()).toBe('Not ready yet: 0 met, 15 not met, 0 wrong.');
    expect(await page.getByTestId('go-live-row').count()).toBe(15);
    expect(await page.locator('[data-row="create.refused_401"] [data-testid="go-live-exercise"]').textContent()).toMatch(/^To exercise it: an order starting with sbx-unauth-/);

    await page.getByTestId('go-live-receiver').fill(`${naive.url}/deposit-callback`);
    await page.getByTestId('go-live-run').click();
    await page.getByTestId('go-live-receiver-line').filter({ hasText: 'checked' }).waitFor({ timeout: 60_000 });
    const after = await statuses(page);
    expect(after['callback.bad_signature']).toBe('wrong');
    expect(after['callback.duplicate']).toBe('met');
    expect(after['credits.checked']).toBe('not_met');
    expect(await page.locator('[data-row="callback.bad_signature"] [data-testid="go-live-evidence"]').first().textContent()).toMatch(/^check-callback: a wrong signature: flagged: /);
    expect(naive.received.length).toBeGreaterThan(5);
    await screenshot(page, 'go-live-desktop');
    await expectClean(watched);
    await watched.context.close();
  });

  it('speaks Russian when the dashboard does, fits a phone and has no serious accessibility violation', async () => {
    const watched = await openPage(browser, PHONE);
    const { page } = watched;
    await open(page, '?lang=ru');
    expect(await page.locator('h2#go-live-title').textContent()).toBe('Готовность к запуску');
    expect(await page.locator('[data-row="create.accepted"] [data-testid="go-live-status"]').textContent()).toBe('не выполнено');
    expect(await page.locator('[data-row="credits.checked"] td:nth-child(2) p').first().textContent()).toBe('зачисления прочитаны из вашей пробы баланса');
    expect(await page.locator('[data-row="create.accepted"] td:nth-child(2) p').first().textContent()).toBe('создание сделки принято');
    expect(await page.locator('html').getAttribute('lang')).toBe('ru');
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'go-live-phone-ru');
    await expectClean(watched);
    await watched.context.close();
  });
});
