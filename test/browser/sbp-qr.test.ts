import jsQRModule from 'jsqr';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseSbpPayload } from '../../src/pages/sbp-qr.js';
import { describeBrowser, DESKTOP, expectClean, launchBrowser, openPage, PHONE, screenshot, type WatchedPage } from './browser.js';
import { serveSandbox, type ServedSandbox } from './servers.js';

// jsqr is CommonJS with an ES-style default in its types: take whichever the loader hands over.
type Decode = (data: Uint8ClampedArray, width: number, height: number) => { binaryData: number[] } | null;
const jsQR: Decode = (jsQRModule as unknown as { default?: Decode }).default ?? (jsQRModule as unknown as Decode);

/**
 * The QR code on an nspk page, as Chromium draws it: its pixels are read back from the
 * page and decoded with jsQR, and the text must carry the trade's phone, amount and recipient.
 */
async function decodeQr(page: Page): Promise<string | undefined> {
  const qr = page.getByTestId('sbp-qr');
  await qr.scrollIntoViewIfNeeded();
  const shot = await qr.screenshot({ scale: 'css' });
  // Decode the PNG in the page itself (a canvas), so no PNG library is needed here.
  const pixels = await page.evaluate(async (base64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d canvas');
    context.drawImage(image, 0, 0);
    // Handed back as one base64 string: an array of a number per byte costs both sides far more to pass.
    const bytes = context.getImageData(0, 0, canvas.width, canvas.height).data;
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { width: canvas.width, height: canvas.height, rgba: btoa(binary) };
  }, shot.toString('base64'));
  const rgba = Buffer.from(pixels.rgba, 'base64');
  const code = jsQR(new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, rgba.length), pixels.width, pixels.height);
  return code ? new TextDecoder().decode(Uint8Array.from(code.binaryData)) : undefined;
}

describeBrowser('SBP QR code in Chromium', () => {
  let browser: Browser;
  let sandbox: ServedSandbox;
  /** One tab per device for the file: each test loads its own trade's page in it. */
  let phone: WatchedPage;
  let desktop: WatchedPage;

  beforeAll(async () => {
    [browser, sandbox] = await Promise.all([launchBrowser(), serveSandbox()]);
    [phone, desktop] = await Promise.all([openPage(browser, PHONE), openPage(browser, DESKTOP)]);
  });

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  for (const [lang, device, name] of [
    ['ru', () => phone, 'phone'],
    ['en', () => desktop, 'desktop'],
  ] as const) {
    it(`${lang}, ${name}: decodes back to the phone, amount and recipient`, async () => {
      const trade = await sandbox.create({ order: `qr-${lang}`, type: 'nspk', amount_cents: 123456 });
      const stored = sandbox.sandbox.store.trades.get(trade.id)!;
      const watched = device();
      const { page } = watched;
      await page.goto(`${trade.payment_data.url}?lang=${lang}`);
      expect(await page.getByTestId('sbp-qr').locator('svg').count()).toBe(1);
      const text = await decodeQr(page);
      expect(parseSbpPayload(text ?? '')).toEqual({
        Name: stored.requisites.name,
        BankName: stored.requisites.bank_name,
        Phone: stored.requisites.number,
        Sum: '123456',
        Cur: 'RUB',
        TradeId: trade.id,
      });
      expect(await page.getByTestId('sbp-qr').getAttribute('aria-label')).toContain(stored.requisites.name);
      await screenshot(page, `sbp-qr-${lang}-${name}`);
      await expectClean(watched);
    });
  }

  it('an any_bank page has no QR code', async () => {
    const trade = await sandbox.create({ order: 'qr-card' });
    await phone.page.goto(trade.payment_data.url);
    await phone.page.getByTestId('requisites-number').waitFor();
    expect(await phone.page.getByTestId('sbp-qr').count()).toBe(0);
  });
});
