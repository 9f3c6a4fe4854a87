import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SECOND } from '../support.js';
import { describeBrowser, DESKTOP, expectClean, forgetStorage, launchBrowser, openPage, PHONE, screenshot, signIn, type WatchedPage } from './browser.js';
import { serveSandbox, startShop, type ServedSandbox, type Shop } from './servers.js';

const TOKEN = 'qa-admin-token';

/** Fills and sends the New trade form; waits for its answer. */
async function createTrade(page: Page, fields: { merchant: string; type: string; amount: string; order: string; callback?: string; scenario?: string }): Promise<void> {
  await page.getByTestId('new-merchant').selectOption({ label: fields.merchant });
  await page.getByTestId('new-type').selectOption(fields.type);
  await page.getByTestId('new-amount').fill(fields.amount);
  await page.getByTestId('new-order').fill(fields.order);
  if (fields.callback) await page.getByTestId('new-callback').fill(fields.callback);
  if (fields.scenario) await page.getByTestId('new-scenario').selectOption(fields.scenario);
  await page.getByTestId('new-submit').click();
  // The button is disabled from the submit until the answer is shown: the result of the previous
  // create is still there meanwhile.
  await page.locator('[data-testid="new-submit"]:enabled').waitFor();
  await page.getByTestId('new-result').filter({ hasText: /./ }).waitFor();
}

/**
 * The dashboard's "New trade" form creates through the provider API with the chosen
 * merchant's credentials (a signature when the sandbox insists on one); the table shows the
 * merchant's name, times with their zone, and no order wrapped mid-word at 1280 px.
 */
describeBrowser('dashboard New trade in Chromium', () => {
  let browser: Browser;
  let sandbox: ServedSandbox;
  let shop: Shop;
  /** The desktop tests' tab; each signs in afresh in it (forgetStorage). */
  let desktop: WatchedPage;

  beforeAll(async () => {
    [browser, sandbox, shop] = await Promise.all([launchBrowser(), serveSandbox({ adminToken: TOKEN, auth: 'signature' }), startShop()]);
    desktop = await openPage(browser, DESKTOP);
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([sandbox?.close(), shop?.close()]);
  });

  it('en, 1280 px: creates signed trades as the picked merchant, shows names and zones, wraps no order mid-word', async () => {
    const watched = desktop;
    const { page } = watched;
    await forgetStorage(page, sandbox.url);
    await signIn(page, `${sandbox.url}/_sandbox/`, TOKEN);
    await page.getByTestId('profile-name').filter({ hasText: 'sandbox' }).waitFor();
    expect(await page.getByTestId('new-hint').textContent()).toBe(
      "Sent to POST /api/v1/trades/deposit/create with the merchant's credentials (X-Auth: its signature with its secret, HMAC-SHA256, hex, as the sandbox profile signs), as a merchant's server would.",
    );
    await createTrade(page, { merchant: 'Second Shop', type: 'nspk', amount: '1 234,5', order: 'qa-checkout-with-a-long-order-number-20261123-000001', callback: `${shop.url}/cb` });
    expect(await page.getByTestId('new-created').textContent()).toBe('Created trade qa-checkout-with-a-long-order-number-20261123-000001 (created).');
    const stored = [...sandbox.sandbox.store.trades.values()].find((t) => t.order === 'qa-checkout-with-a-long-order-number-20261123-000001');
    expect(stored).toMatchObject({ merchant: SECOND.id, type: 'nspk', amount_cents: 123450, callback_url: `${shop.url}/cb` });
    expect(stored?.history[0]?.cause).toBe('create');

    await createTrade(page, { merchant: 'Demo Shop', type: 'ecom', amount: '312.50', order: 'qa-ecom-1', scenario: 'confirm' });
    const ecom = [...sandbox.sandbox.store.trades.values()].find((t) => t.order === 'qa-ecom-1');
    expect(ecom).toMatchObject({ type: 'ecom', amount_cents: 31250, scenario: 'confirm' });

    const row = page.getByTestId('trade-row').filter({ hasText: 'qa-checkout-with-a-long-order-number' });
    await row.waitFor();
    expect(await row.getByTestId('trade-merchant').textContent()).toBe('Second Shop');
    expect(await row.locator('time').first().textContent()).toMatch(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2} UTC$/);
    // An inline link broken over two lines has two client rectangles.
    const lines = await page.getByTestId('trade-order').evaluateAll((links) => links.map((link) => link.getClientRects().length));
    expect(
      lines.every((n) => n === 1),
      `lines per order: ${lines.join(',')}`,
    ).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, 'dashboard-new-trade-en-desktop');
    await expectClean(watched);
  });

  it("signs under the profile of the workspace, read again before each create: MD5 (the script's own), HMAC-SHA512 in X-Signature beside the token, SHA-256 with the secret last", async () => {
    const setProfile = async (workspace: string, text: string) => {
      const res = await fetch(`${sandbox.url}/w/${workspace}/_sandbox/profile`, { method: 'PUT', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/yaml' }, body: text });
      expect(res.status, await res.clone().text()).toBe(200);
    };
    await setProfile('qa-md5', 'name: qa-md5\nextends: md5-colon\n');
    const watched = desktop;
    const { page } = watched;
    await forgetStorage(page, sandbox.url);
    const requests: Array<Record<string, string>> = [];
    const record = (request: Request) => {
      if (request.url().includes('/api/v1/trades/deposit/')) requests.push(request.headers());
    };
    page.on('request', record);
    await signIn(page, `${sandbox.url}/w/qa-md5/_sandbox/`, TOKEN);
    expect(await page.getByTestId('profile-name').textContent()).toBe('qa-md5');
    expect(await page.getByTestId('profile').getAttribute('title')).toMatch(/^This workspace's own provider profile/);
    await page.getByTestId('new-hint').filter({ hasText: 'MD5, hex, as the qa-md5 profile signs' }).waitFor();
    await createTrade(page, { merchant: 'Demo Shop', type: 'nspk', amount: '100', order: 'qa-md5-1' });
    expect(await page.getByTestId('new-created').textContent()).toBe('Created trade qa-md5-1 (created).');
    expect(requests.at(-1)?.['x-auth']).toMatch(/^[0-9a-f]{32}$/);

    // Set while the page is open: the next create signs under it, before a poll shows it.
    await setProfile('qa-md5', 'name: qa-sha512\nextends: hmac-sha512-base64\n');
    await createTrade(page, { merchant: 'Second Shop', type: 'ecom', amount: '99,90', order: 'qa-sha512-1' });
    expect(await page.getByTestId('new-created').textContent()).toMatch(/^Created trade qa-sha512-1 \(/);
    expect(requests.at(-1)).toMatchObject({ 'x-auth': SECOND.token, 'x-signature': expect.stringMatching(/^[A-Za-z0-9+/]{86}==$/) });
    expect(await page.getByTestId('profile-name').textContent()).toBe('qa-sha512');
    expect(await page.getByTestId('new-hint').textContent()).toContain('(X-Auth: its token; X-Signature: its signature with its secret, HMAC-SHA512, base64, as the qa-sha512 profile signs)');

    await setProfile('qa-md5', 'name: qa-sha256\nextends: sha256-secret-last\n');
    await createTrade(page, { merchant: 'Demo Shop', type: 'any_bank', amount: '5', order: 'qa-sha256-1' });
    expect(await page.getByTestId('new-created').textContent()).toBe('Created trade qa-sha256-1 (created).');
    expect(requests.at(-1)?.['x-auth']).toMatch(/^[0-9a-f]{64}$/);
    page.off('request', record);
    await expectClean(watched);
  });

  it("ru, phone: the form speaks Russian and a refused create shows the provider's message", async () => {
    const watched = await openPage(browser, PHONE);
    const { page } = watched;
    await signIn(page, `${sandbox.url}/_sandbox/?lang=ru`, TOKEN);
    expect(await page.getAttribute('html', 'lang')).toBe('ru');
    expect(await page.getByTestId('new-submit').textContent()).toBe('Создать');
    await createTrade(page, { merchant: 'Demo Shop', type: 'any_bank', amount: '0', order: 'qa-ru-1' });
    expect(await page.getByTestId('new-error').textContent()).toContain('312,50');
    await createTrade(page, { merchant: 'Demo Shop', type: 'any_bank', amount: '312,50', order: 'qa-ru-1' });
    await createTrade(page, { merchant: 'Demo Shop', type: 'any_bank', amount: '312,50', order: 'qa-ru-1' });
    // The refusal in Russian, and the provider's own text (what the merchant's code sees) beside it, in English.
    expect(await page.getByTestId('new-error').locator('.refusal').textContent()).toBe(
      'API провайдера ответил 422: Такой номер заказа у этого магазина уже есть: для новой сделки нужен новый номер (повтор с тем же номером — это повтор той же сделки).',
    );
    expect(await page.getByTestId('new-error-provider').textContent()).toMatch(/^Текст провайдера \(его видит код магазина\): .*qa-ru-1/);
    expect(await page.getByTestId('new-error-provider').locator('[lang="en"]').textContent()).toMatch(/qa-ru-1/);
    await page.getByTestId('trade-row').filter({ hasText: 'qa-ru-1' }).waitFor();
    expect(await page.getByTestId('trades-total').textContent()).toMatch(/^\d+ сдел(ка|ки|ок)$/);
    // QA's own clicks are not the merchant's: the trades and the refused duplicate order count for nothing.
    const report = (await (await fetch(`${sandbox.url}/_sandbox/report`, { headers: { Authorization: `Bearer ${TOKEN}` } })).json()) as { total: number; coverage: unknown[] };
    expect(report).toMatchObject({ total: 0, coverage: [] });
    await screenshot(page, 'dashboard-new-trade-ru-phone');
    await expectClean(watched);
    await watched.context.close();
  });
});
