import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PAY_EN } from '../../src/i18n/pay-en.js';
import { describeBrowser, DESKTOP, expectClean, launchBrowser, openPage, PHONE, screenshot, type WatchedPage } from './browser.js';
import { serveSandbox, type ServedSandbox } from './servers.js';

/**
 * Every payment-side page as a payer reads it, in Russian and English, at 390 and 1280 px:
 * nothing scrolls sideways, no text sticks out of its box, a label never breaks inside
 * "(ММ/ГГ)", "(MM/YY)" or "3-D Secure", and a Russian page says no word of the English
 * catalogue (names aside). Each page is loaded once per language in a phone context and checked
 * at both sizes by resizing it, as test/browser/accessibility.test.ts explains.
 * With SCREENSHOTS=1 the pages go to test-artifacts/screenshots/ (languages-*).
 */

const SIZES = { phone: PHONE.viewport!, desktop: DESKTOP.viewport! } as const;
const LANGS = ['ru', 'en'] as const;
type Lang = (typeof LANGS)[number];

/** The runs a line must not break inside, as a payer would see them broken: «(ММ/ / ГГ)», «(3- / D Secure)», «deposit- / sandbox». */
const UNBREAKABLE = { ru: ['(ММ/ГГ)', '(3-D Secure)', '3-D Secure', 'deposit-sandbox'], en: ['(MM/YY)', '(3-D Secure)', '3-D Secure', 'deposit-sandbox'] } as const;

/**
 * Names a Russian page writes in Latin letters on purpose: the standard "3-D Secure", the card's
 * CVC, a QR code and the time zone. Anything else the English catalogue says is an untranslated word.
 */
const NAMES = new Set(['secure', 'cvc', 'qr', 'utc', 'gmt']);

/** Every word of two or more Latin letters the English catalogue says, placeholders aside, in lower case. */
const ENGLISH_WORDS = new Set(
  Object.values(PAY_EN)
    .flatMap((text) => text.replace(/\{\w+\}/g, ' ').match(/[A-Za-z]{2,}/g) ?? [])
    .map((word) => word.toLowerCase()),
);

/**
 * The text a payer reads or hears: the visible text and the aria-labels and titles, without the
 * language switch, the requisites, the trade id, the order and `names` (the merchant's, the
 * recipients' and their banks', which the QR code's label and the 3-D Secure step repeat).
 */
const readText = (page: Page, names: string[]) =>
  page.evaluate((names) => {
    const copy = document.body.cloneNode(true) as HTMLElement;
    for (const skip of copy.querySelectorAll('.langs, dl.requisites, .mono, [data-testid="merchant"], [data-testid="order"], script, style')) skip.remove();
    const labels = [...copy.querySelectorAll('[aria-label], [title]')].map((element) => `${element.getAttribute('aria-label') ?? ''} ${element.getAttribute('title') ?? ''}`);
    document.body.append(copy);
    copy.style.position = 'absolute';
    // biome-ignore lint/performance/useDomNodeTextContent: the visible text, as a payer reads it
    const text = `${copy.innerText} ${labels.join(' ')}`;
    copy.remove();
    return names.reduce((left, name) => left.split(name).join(' '), text);
  }, names);

/**
 * Words of the English catalogue in a Russian page's text. Raw names go first: a word with a digit,
 * "_", "-" or "." in it (deposit-sandbox, payment_data.url, --in-memory, 3-D, QR-код).
 */
function untranslated(text: string): string[] {
  const words =
    text
      .replace(/\S*[\d_.-]\S*/g, ' ')
      .match(/[A-Za-z]{2,}/g)
      ?.map((word) => word.toLowerCase()) ?? [];
  return [...new Set(words.filter((word) => ENGLISH_WORDS.has(word) && !NAMES.has(word)))];
}

/**
 * Text that sticks out of the box it is laid out in (the nearest box that is not inline), out of a
 * box that clips, or out of the viewport: text a payer sees cut off or over its neighbours.
 */
const clippedText = (page: Page) =>
  page.evaluate(() => {
    const found: string[] = [];
    const outside = (rect: DOMRect, box: DOMRect) => rect.left < box.left - 1 || rect.right > box.right + 1 || rect.top < box.top - 1 || rect.bottom > box.bottom + 1;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !node.textContent?.trim() || parent.closest('script, style, svg')) continue;
      let block: HTMLElement = parent;
      while (['inline', 'contents'].includes(getComputedStyle(block).display) && block.parentElement) block = block.parentElement;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) {
        if (rect.width === 0) continue;
        const what = `"${node.textContent.trim().slice(0, 40)}"`;
        if (rect.left < -1 || rect.right > window.innerWidth + 1) found.push(`${what} is outside the viewport`);
        if (outside(rect, block.getBoundingClientRect())) found.push(`${what} sticks out of its <${block.localName} class="${block.className}">`);
        for (let box: HTMLElement | null = parent; box && box !== document.body; box = box.parentElement) {
          const style = getComputedStyle(box);
          if ((style.overflowX !== 'visible' || style.overflowY !== 'visible') && outside(rect, box.getBoundingClientRect()))
            found.push(`${what} is clipped by <${box.localName} class="${box.className}">`);
        }
      }
    }
    return found;
  });

/**
 * Each occurrence of `runs` in the page's text, and whether it is laid out on one line: a Range over
 * the occurrence (across the text nodes it spans) whose boxes all sit on the line of its first.
 */
const runLines = (page: Page, runs: readonly string[]) =>
  page.evaluate((wanted) => {
    const nodes: { node: Text; start: number }[] = [];
    let text = '';
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      if (node.parentElement?.closest('script, style')) continue;
      nodes.push({ node, start: text.length });
      text += node.data;
    }
    const at = (offset: number): [Text, number] => {
      let hit = nodes[0]!;
      for (const entry of nodes) if (entry.start <= offset) hit = entry;
      return [hit.node, offset - hit.start];
    };
    const found: { run: string; lines: number }[] = [];
    for (const run of wanted) {
      for (let index = text.indexOf(run); index !== -1; index = text.indexOf(run, index + 1)) {
        const range = document.createRange();
        range.setStart(...at(index));
        range.setEnd(...at(index + run.length - 1));
        range.setEnd(range.endContainer, range.endOffset + 1);
        const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
        // A closed <details> holds text with no box: nothing a payer sees.
        if (rects.length === 0) continue;
        const first = rects[0]!;
        found.push({ run, lines: 1 + rects.filter((rect) => rect.top >= first.bottom - 2).length });
      }
    }
    return found;
  }, runs);

describeBrowser('the payment pages as a payer reads them, in Russian and English, at 390 and 1280 px', () => {
  let browser: Browser;
  let sandbox: ServedSandbox;
  let phone: WatchedPage;
  const urls: Record<string, string> = {};
  /** The merchant's name and the trades' recipients and banks: names, said as they are in either language. */
  const names: string[] = [];

  beforeAll(async () => {
    [browser, sandbox] = await Promise.all([launchBrowser(), serveSandbox()]);
    const due = sandbox.sandbox.clock.now() + 15 * 60_000;
    const p2p = await sandbox.create({ order: 'languages-any-bank' });
    const nspk = await sandbox.create({ order: 'languages-nspk', type: 'nspk' });
    const ecom = await sandbox.create({ order: 'languages-ecom' }, 'build');
    for (const trade of [p2p, nspk, ecom]) sandbox.sandbox.scheduler.schedule('transition', due, { state: 'expired' }, trade.id);
    // A result page that says again what the 3-D Secure step told the payer.
    const declined = await sandbox.create({ order: 'languages-3ds-declined' }, 'build');
    const form = (path: string, fields: Record<string, string>) => fetch(`${sandbox.url}${path}`, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
    expect((await form(`/pay/${declined.id}/pay`, { number: '4000000000003220', expiry: '12/40', cvc: '123' })).status).toBe(200);
    expect((await form(`/pay/${declined.id}/3ds`, { card: '4000000000003220', code: '0000' })).status).toBe(303);
    Object.assign(urls, { p2p: p2p.payment_data.url, nspk: nspk.payment_data.url, ecom: ecom.payment_data.url, declined: `${declined.payment_data.url}/result` });
    for (const trade of sandbox.sandbox.store.trades.values()) {
      names.push(sandbox.sandbox.merchants.get(trade.merchant)!.name, trade.requisites.name, trade.requisites.bank_name);
    }
    phone = await openPage(browser, PHONE);
  });

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  const openCard = async (page: Page, lang: Lang) => {
    await page.goto(`${urls['ecom']}?lang=${lang}`);
    await page.getByTestId('card-number').fill('4000 0000 0000 3220');
    await page.getByTestId('card-expiry').fill('12/40');
    await page.getByTestId('card-cvc').fill('123');
  };

  /** How each page is reached, and which unbreakable runs it must show (so the check cannot pass on a page without them). */
  const PAGES: Record<string, { reach: (page: Page, lang: Lang) => Promise<unknown>; shows: (lang: Lang) => string[] }> = {
    'any-bank': { reach: (page, lang) => page.goto(`${urls['p2p']}?lang=${lang}`), shows: () => [] },
    nspk: { reach: (page, lang) => page.goto(`${urls['nspk']}?lang=${lang}`), shows: () => [] },
    'card-form': {
      reach: async (page, lang) => {
        await page.goto(`${urls['ecom']}?lang=${lang}`);
        await page.getByTestId('test-cards').locator('summary').click();
      },
      shows: (lang) => [UNBREAKABLE[lang][0], '3-D Secure'],
    },
    'card-errors': {
      reach: async (page, lang) => {
        await page.goto(`${urls['ecom']}?lang=${lang}`);
        await page.getByTestId('pay').click();
        await page.getByTestId('error-number').waitFor();
      },
      shows: (lang) => [UNBREAKABLE[lang][0], '(3-D Secure)', '3-D Secure'],
    },
    '3ds': {
      reach: async (page, lang) => {
        await openCard(page, lang);
        await page.getByTestId('pay').click();
        await page.getByTestId('3ds-code').waitFor();
      },
      shows: () => ['3-D Secure'],
    },
    'result-3ds-declined': { reach: (page, lang) => page.goto(`${urls['declined']}?lang=${lang}`), shows: () => ['3-D Secure'] },
    'not-found': { reach: (page, lang) => page.goto(`${sandbox.url}/pay/00000000-0000-4000-8000-000000000000?lang=${lang}`), shows: () => [] },
  };

  for (const lang of LANGS) {
    for (const [name, { reach, shows }] of Object.entries(PAGES)) {
      it(`${name}, ${lang}: fits 390 and 1280 px, nothing clipped, no run broken, ${lang === 'ru' ? 'no English word' : 'no Russian word'}`, async () => {
        const { page } = phone;
        await reach(page, lang);
        expect(await page.getAttribute('html', 'lang')).toBe(lang);
        const text = await readText(page, names);
        if (lang === 'ru') expect(untranslated(text)).toEqual([]);
        else expect(text.match(/[А-Яа-яЁё]+/g) ?? []).toEqual([]);
        for (const [device, size] of Object.entries(SIZES)) {
          await page.setViewportSize(size);
          const at = `${name}, ${lang}, ${size.width} px`;
          expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `${at} scrolls sideways`).toBeLessThanOrEqual(0);
          expect(await clippedText(page), at).toEqual([]);
          const runs = await runLines(page, UNBREAKABLE[lang]);
          expect(
            runs.filter((run) => run.lines > 1).map((run) => run.run),
            `${at}: broken inside`,
          ).toEqual([]);
          // Every page's banner names deposit-sandbox.
          expect(new Set(runs.map((run) => run.run)), `${at} shows its runs`).toEqual(new Set(['deposit-sandbox', ...shows(lang)]));
          await screenshot(page, `languages-${name}-${lang}-${device}`);
        }
        await page.setViewportSize(SIZES.phone);
        await expectClean(phone);
      });
    }
  }

  for (const [lang, below, banner] of [
    ['ru', 'указанные ниже', /^Песочница\. Это тестовая платёжная страница deposit-sandbox: настоящие деньги не списываются\.$/],
    ['en', 'shown below', /^Sandbox\. This is a test payment page of deposit-sandbox: no real money moves\.$/],
  ] as const) {
    it(`${lang}: the SBP caption points down to the phone, amount and recipient, which are below the QR code; the banner is sentences`, async () => {
      const { page } = phone;
      await PAGES['nspk']!.reach(page, lang);
      const caption = page.locator('.sbp-qr figcaption');
      expect(await caption.textContent()).toContain(below);
      const [captionBox, phoneBox, recipientBox] = await Promise.all([caption.boundingBox(), page.getByTestId('requisites-number').boundingBox(), page.getByTestId('requisites-name').boundingBox()]);
      expect(phoneBox!.y).toBeGreaterThan(captionBox!.y + captionBox!.height);
      expect(recipientBox!.y).toBeGreaterThan(phoneBox!.y);
      // biome-ignore lint/performance/useDomNodeTextContent: the banner as a payer reads it, its spaces as laid out
      expect(await page.locator('.sandbox-banner p').evaluate((banner) => (banner as HTMLElement).innerText.trim())).toMatch(banner);
      await expectClean(phone);
    });
  }

  it('the words check finds an English word left in Russian text, and passes names', () => {
    expect(untranslated('Оплатите до 21:11 UTC. Card number: 4242')).toEqual(['card', 'number']);
    expect(untranslated('Проверка 3-D Secure, CVC, QR-код, deposit-sandbox, Demo Shop')).toEqual([]);
  });
});
