/**
 * The dashboard's "Integration report" panel in Chromium: a real sandbox on 127.0.0.1 sees a
 * merchant's mistakes over HTTP; the panel shows them per merchant once the admin token is in.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBrowser, DESKTOP, expectClean, launchBrowser, openPage, screenshot, signIn } from './browser.js';
import { serveSandbox, type ServedSandbox } from './servers.js';
import { DEMO } from '../support.js';

const TOKEN = 'report-admin-token';

describeBrowser('the integration report panel in Chromium', () => {
  let browser: Browser;
  let sandbox: ServedSandbox;

  beforeAll(async () => {
    [browser, sandbox] = await Promise.all([launchBrowser(), serveSandbox({ adminToken: TOKEN })]);
  });

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  it('shows each merchant with its mistakes, and Refresh reads them again', async () => {
    const create = (headers: Record<string, string>, order: string) =>
      fetch(`${sandbox.url}/api/v1/trades/deposit/create`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify({ merchant: DEMO.id, order, amount_cents: 31250, amount_currency: 'RUB', type: 'any_bank' }),
      });
    expect((await create({ 'X-Auth': 'not-the-token' }, 'dash-report-1')).status).toBe(401);

    const watched = await openPage(browser, DESKTOP);
    const { page } = watched;
    await signIn(page, `${sandbox.url}/_sandbox/`, TOKEN);
    // The panel is closed as served; its heading opens it.
    expect(await page.getByTestId('report-section').getAttribute('open')).toBeNull();
    await page.getByTestId('report-open').click();
    await page.getByTestId('report-summary').filter({ hasText: 'seen' }).waitFor();
    expect(await page.getByTestId('report-summary').textContent()).toBe('1 mistake seen.');
    const row = page.getByTestId('report-merchant');
    expect(await row.getAttribute('data-merchant')).toBe(DEMO.id);
    expect(await row.getByTestId('report-line').allTextContents()).toEqual(['401 signature_mismatch: 1']);

    expect((await create({ 'X-Token': DEMO.token }, 'dash-report-2')).status).toBe(401);
    await page.getByTestId('report-refresh').click();
    await page.getByTestId('report-summary').filter({ hasText: '2 mistakes seen.' }).waitFor();
    expect(await row.getByTestId('report-line').allTextContents()).toEqual(['401 signature_mismatch: 1', '401 wrong_auth_header: 1']);
    expect(await row.getByTestId('report-total').textContent()).toBe('2');
    // The coverage: every row of the merchant, its status translated, the row id beside it.
    const coverage = page.locator(`[data-testid="coverage-merchant"][data-merchant="${DEMO.id}"]`);
    expect(await coverage.getByTestId('coverage-row').count()).toBe(13);
    expect(await coverage.locator('[data-row="create.refused_401"]').getAttribute('data-status')).toBe('seen');
    expect(await coverage.locator('[data-row="create.refused_401"]').getByTestId('coverage-status').textContent()).toBe('seen');
    expect(await coverage.locator('[data-row="callback.confirmed"]').getByTestId('coverage-status').textContent()).toBe('not seen');
    await screenshot(page, 'dashboard-integration-report');
    await expectClean(watched);
    await watched.context.close();
  });
});
