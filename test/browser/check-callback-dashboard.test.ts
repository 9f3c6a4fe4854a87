/**
 * The dashboard's "Check a callback receiver" panel in Chromium: a real sandbox and a real
 * receiver on 127.0.0.1, the admin token entered as QA would.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBrowser, DESKTOP, expectClean, launchBrowser, openPage, PHONE, screenshot, signIn } from './browser.js';
import { serveSandbox, type ServedSandbox } from './servers.js';
import { startReceiver, type Receiver } from '../callbacks-receiver.js';
import { SECOND } from '../support.js';

const TOKEN = 'check-admin-token';

describeBrowser('the callback check panel in Chromium', () => {
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

  async function open(page: Page): Promise<void> {
    await signIn(page, `${sandbox.url}/_sandbox/`, TOKEN);
    // The panel is closed as served; its heading opens it.
    await page.getByTestId('check-open').click();
  }

  it('runs the check and shows a verdict per case, with what to fix', async () => {
    const watched = await openPage(browser, DESKTOP);
    const { page } = watched;
    await open(page);
    await page.getByTestId('check-url').fill(`${naive.url}/deposit-callback`);
    await page.getByTestId('check-merchant').fill(SECOND.id);
    await page.getByTestId('check-run').click();
    await page.getByTestId('check-summary').filter({ hasText: 'flagged' }).waitFor();
    expect(await page.getByTestId('check-summary').textContent()).toBe('2 of 5 checks flagged.');
    const cases = page.getByTestId('check-case');
    expect(await cases.evaluateAll((rows) => rows.map((row) => [row.getAttribute('data-case'), row.querySelector('[data-testid="check-verdict"]')?.textContent]))).toEqual([
      ['valid', 'ok'],
      ['duplicate', 'ok'],
      ['older_state', 'ok'],
      ['bad_signature', 'flagged'],
      ['no_signature', 'flagged'],
    ]);
    expect(await cases.filter({ hasText: 'a wrong signature' }).textContent()).toContain('anyone who can reach this URL could mark orders paid');
    expect(naive.received.at(-1)?.body).toContain(SECOND.id);
    expect(await page.getByTestId('check-run').isEnabled()).toBe(true);
    await screenshot(page, 'dashboard-check-callback-desktop');
    await expectClean(watched);
    await watched.context.close();
  });

  it("shows the sandbox's explanation when the URL is refused, and fits a phone", async () => {
    const watched = await openPage(browser, PHONE);
    const { page } = watched;
    await open(page);
    await page.getByTestId('check-url').fill('file:///etc/passwd');
    await page.getByTestId('check-run').click();
    await page.getByTestId('check-summary').filter({ hasText: 'url must be' }).waitFor();
    expect(await page.getByTestId('check-summary').textContent()).toContain('url must be an absolute http:// or https:// URL');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'dashboard-check-callback-phone');
    // The refused check is a 422 the page shows; anything else is a problem.
    await expectClean(watched, /422/);
    await watched.context.close();
  });
});
