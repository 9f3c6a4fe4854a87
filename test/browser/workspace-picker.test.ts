import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO, p2pBody } from '../support.js';
import { describeBrowser, DESKTOP, expectClean, launchBrowser, openPage } from './browser.js';
import { serveSandbox, type ServedSandbox } from './servers.js';

describeBrowser('dashboard of a workspace, and the workspace picker, in Chromium', () => {
  let browser: Browser;
  let sandbox: ServedSandbox;

  beforeAll(async () => {
    [browser, sandbox] = await Promise.all([launchBrowser(), serveSandbox()]);
  });
  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  async function create(workspace: string, order: string): Promise<{ id: string }> {
    const res = await fetch(`${sandbox.url}/w/${workspace}/api/v1/trades/deposit/create`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Auth': DEMO.token },
      body: JSON.stringify(p2pBody({ order })),
    });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: string };
  }

  it("shows only the workspace's trades, links its payment page, and opens another workspace from the picker", async () => {
    const mine = await create('qa-anna', 'anna-1');
    await create('qa-boris', 'boris-1');
    const watched = await openPage(browser, DESKTOP);
    const { page } = watched;
    await page.goto(`${sandbox.url}/w/qa-anna/_sandbox/`);
    await page.getByTestId('trade-row').filter({ hasText: 'anna-1' }).waitFor();
    expect(await page.getByTestId('trade-row').count()).toBe(1);
    expect(await page.getByTestId('workspace-input').inputValue()).toBe('qa-anna');
    await expect.poll(() => page.locator('#workspace-names option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual(['default', 'qa-anna', 'qa-boris']);
    await page.getByTestId('trade-row').filter({ hasText: 'anna-1' }).getByTestId('trade-order').click();
    const link = page.getByRole('link', { name: 'open' });
    expect(await link.getAttribute('href')).toBe(`/w/qa-anna/pay/${mine.id}?lang=en`);

    await expectClean(watched);

    await page.getByTestId('workspace-input').fill('qa-boris');
    await page.getByTestId('workspace-open').click();
    await page.waitForURL(`${sandbox.url}/w/qa-boris/_sandbox/`);
    await page.getByTestId('trade-row').filter({ hasText: 'boris-1' }).waitFor();
    expect(await page.getByTestId('trade-row').count()).toBe(1);
    // Leaving a page cancels its polling requests (net::ERR_ABORTED); anything else is a problem.
    await expectClean(watched, /ERR_ABORTED/);
  });
});
