import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DASHBOARD_EN } from '../../src/i18n/dashboard-en.js';
import { DASHBOARD_RU } from '../../src/i18n/dashboard-ru.js';
import { SERVER_TEXTS_EN } from '../../src/i18n/server-texts-en.js';
import { SERVER_TEXTS_RU } from '../../src/i18n/server-texts-ru.js';
import type { Catalogue } from '../../src/i18n/translator.js';
import { describeBrowser, DESKTOP, expectClean, forgetStorage, launchBrowser, openPage, PHONE, screenshot, type WatchedPage } from './browser.js';
import { serveSandbox, startShop, type ServedSandbox, type Shop } from './servers.js';

/**
 * The dashboard at 390 px and 1280 px, in English and Russian, with ~40 trades, a trade's
 * history and callbacks, the scenarios, the report and a receiver check on the page: nothing
 * scrolls the page sideways, no text is clipped or broken inside a word, wide tables scroll in
 * a frame with a cue, the page stays short on a phone with the less used panels closed (and
 * each opens from the keyboard), and the Russian page shows no text of the English catalogues.
 * With SCREENSHOTS=1 the pages go to test-artifacts/screenshots/ (dashboard-layout-*).
 */

const SIZES = { phone: PHONE, desktop: DESKTOP } as const;
/** How tall the phone page may be with ~40 trades and the scenarios loaded, its less used panels closed. */
const PHONE_HEIGHT_LIMIT = 4000;
const TRADES = 40;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every text of a catalogue (each plural form), as its fixed parts between placeholders. */
function fragments(catalogue: Catalogue): string[] {
  return Object.values(catalogue)
    .flatMap((message) => (typeof message === 'string' ? [message] : Object.values(message)))
    .flatMap((text) => text.split(/\{\w+\}/))
    .map((part) => part.replace(/^[\s.,:;()«»"'–—…→·]+|[\s.,:;()«»"'–—…→·]+$/g, ''))
    .filter((part) => /[A-Za-z]{2}/.test(part));
}

/**
 * The English texts a Russian page must not show: the fixed parts of the English dashboard and
 * server texts, less those the Russian catalogues say too (raw names such as X-Auth, HTTP, ecom).
 */
const RUSSIAN_SAYS = [...fragments(DASHBOARD_RU), ...fragments(SERVER_TEXTS_RU)].join('\n');
const ENGLISH_ONLY = [...new Set([...fragments(DASHBOARD_EN), ...fragments(SERVER_TEXTS_EN)])].filter((part) => !new RegExp(`\\b${escapeRegExp(part)}\\b`).test(RUSSIAN_SAYS));

describeBrowser('the dashboard on a phone and a desktop, in both languages', () => {
  let browser: Browser;
  let sandbox: ServedSandbox;
  let shop: Shop;
  let detailed: string;
  /** A tab per size, shared by the tests; each test starts the dashboard afresh in it (forgetStorage). */
  const tabs = {} as Record<keyof typeof SIZES, WatchedPage>;

  beforeAll(async () => {
    [browser, sandbox, shop] = await Promise.all([launchBrowser(), serveSandbox(), startShop()]);
    [tabs.phone, tabs.desktop] = await Promise.all([openPage(browser, SIZES.phone), openPage(browser, SIZES.desktop)]);
    for (let i = 1; i < TRADES; i++) await sandbox.create({ order: `layout-${String(i).padStart(2, '0')}-${i % 3 === 0 ? 'sbp' : 'card'}`, type: i % 3 === 0 ? 'nspk' : 'any_bank' });
    const trade = await sandbox.create({ order: 'layout-order-with-a-rather-long-name-0001', callback_url: `${shop.url}/callback` });
    detailed = trade.id;
    await fetch(`${sandbox.url}/_sandbox/trades/${trade.id}/transition`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"state":"confirmed"}' });
    await sandbox.sandbox.callbacks.idle();
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([sandbox?.close(), shop?.close()]);
  });

  /** Opens a collapsed panel from the keyboard: Tab to its summary, Enter. */
  async function openPanel(page: Page, name: string): Promise<void> {
    await page.getByTestId(`${name}-open`).focus();
    await page.keyboard.press('Enter');
    expect(await page.getByTestId(`${name}-section`).evaluate((details) => (details as HTMLDetailsElement).open)).toBe(true);
  }

  /** What the page shows that a reader would find broken. */
  const problems = (page: Page) =>
    page.evaluate(() => {
      const found: string[] = [];
      const name = (element: Element) =>
        `${element.tagName.toLowerCase()}${element.getAttribute('data-testid') ? `[${element.getAttribute('data-testid')}]` : ''} "${(element.textContent ?? '').trim().slice(0, 40)}"`;
      // Against the layout viewport's width (a phone widens window.innerWidth to fit what overflows).
      const { scrollWidth, clientWidth } = document.documentElement;
      if (scrollWidth > clientWidth) found.push(`the page scrolls sideways: ${scrollWidth} px in ${clientWidth}`);
      for (const element of document.querySelectorAll<HTMLElement>('main *')) {
        if (!element.checkVisibility()) continue;
        const style = getComputedStyle(element);
        // Clipped: text cut by overflow hidden or an ellipsis.
        if ((style.textOverflow === 'ellipsis' || style.overflowX === 'hidden') && element.scrollWidth > element.clientWidth + 1) found.push(`clipped: ${name(element)}`);
      }
      // A word broken across lines: its letters on more than one line. Words end at spaces and after hyphens and slashes,
      // where a browser may wrap; JSON bodies and URLs (pre, .url), which wrap anywhere on purpose, are not words.
      for (const cell of document.querySelectorAll<HTMLElement>('main td, main th, main dd, main h2, main summary, main label, main button')) {
        if (!cell.checkVisibility()) continue;
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (node.parentElement?.closest('pre, .url')) continue;
          const text = node.textContent ?? '';
          for (const match of text.matchAll(/[^\s\-/]+[-/]?/g)) {
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + match[0].length);
            const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.bottom)));
            if (lines.size > 1) found.push(`"${match[0]}" broken over ${lines.size} lines in ${name(cell)}`);
          }
        }
      }
      // A table wider or taller than its frame scrolls inside it, with shadows at the frame's edges as the cue.
      for (const box of document.querySelectorAll<HTMLElement>('main .scroll')) {
        const sideways = box.scrollWidth > box.clientWidth;
        const down = box.scrollHeight > box.clientHeight;
        if (!box.checkVisibility() || (!sideways && !down)) continue;
        const style = getComputedStyle(box);
        const cue = style.backgroundAttachment.includes('local') && /radial-gradient/.test(style.backgroundImage) && Number.parseFloat(style.borderRightWidth) >= 1;
        if (!cue || (sideways && style.overflowX !== 'auto') || (down && style.overflowY !== 'auto')) found.push(`a table scrolls without a frame and cue: ${name(box)}`);
      }
      return found;
    });

  /** The visible text of the page but the language switch, raw values (.mono, pre, the provider's English text) and tokens with digits, _, -, / or dots (orders, ids, codes, URLs). */
  const visibleWords = (page: Page) =>
    page.evaluate(() => {
      const copy = document.querySelector('main')!.cloneNode(true) as HTMLElement;
      for (const skip of copy.querySelectorAll('.langs, .mono, pre, [lang="en"], script, style')) skip.remove();
      document.body.append(copy);
      copy.style.position = 'absolute';
      // biome-ignore lint/performance/useDomNodeTextContent: the visible text, as QA reads it
      const text = copy.innerText;
      copy.remove();
      return text
        .split(/\s+/)
        .filter((token) => !/[\d_/@]|\w[-.:]\w/.test(token))
        .join(' ');
    });

  for (const lang of ['en', 'ru'] as const) {
    const ru = lang === 'ru';
    it(`${lang}: at 390 and 1280 px nothing is clipped, broken inside a word or pushed off the page; the phone page is short`, async () => {
      const heights: Record<string, number> = {};
      for (const device of ['phone', 'desktop'] as const) {
        const watched = tabs[device];
        const { page } = watched;
        await forgetStorage(page, sandbox.url);
        await page.goto(`${sandbox.url}/_sandbox/${ru ? '?lang=ru' : ''}#trade=${detailed}`);
        await page
          .getByTestId('trades-total')
          .filter({ hasText: String(TRADES) })
          .waitFor();
        await page.getByTestId('attempt').first().waitFor();
        await page.getByTestId('scenario-row').first().waitFor({ state: 'attached' });

        // The heading is the count, said once ("40 trades", not "Trades 40 trades").
        expect(await page.getByTestId('trades-total').textContent()).toBe(ru ? `${TRADES} сделок` : `${TRADES} trades`);
        // The workspace box has a visible label; the clock button says what it does.
        const label = page.locator('label[for="workspace-input"]');
        expect(await label.isVisible()).toBe(true);
        expect(await label.textContent()).toBe(ru ? 'Рабочее пространство' : 'Workspace');
        expect(await page.getByTestId('advance').textContent()).toBe(ru ? 'Перевести часы' : 'Move the clock');

        // The less used panels are closed; with them so, the phone page is short.
        for (const name of ['check', 'report', 'scenarios']) expect(await page.getByTestId(`${name}-section`).getAttribute('open')).toBeNull();
        heights[device] = await page.evaluate(() => document.documentElement.scrollHeight);
        expect(await problems(page), `${lang} ${device}, panels closed`).toEqual([]);

        // Opened as a user would, from the keyboard, each panel works; the check fills its table.
        for (const name of ['check', 'report', 'scenarios']) await openPanel(page, name);
        await page.getByTestId('check-url').fill(`${shop.url}/callback`);
        await page.getByTestId('check-run').click();
        await page.getByTestId('check-case').first().waitFor();
        await page.getByTestId('coverage-row').first().waitFor();
        // The scenarios keep their file column.
        expect(await page.locator('[data-testid="scenarios"] th').allTextContents()).toEqual(ru ? ['Имя', 'Условие', 'Действие', 'Файл'] : ['Name', 'Trigger', 'Does', 'File']);
        expect(await page.getByTestId('scenario-file').first().textContent()).toMatch(/\.ya?ml$/);
        expect(await problems(page), `${lang} ${device}, panels open`).toEqual([]);
        await screenshot(page, `dashboard-layout-${lang}-${device}`);

        if (ru) {
          // The Russian page shows no English text of the dashboard's or the server's catalogues.
          const words = await visibleWords(page);
          expect(ENGLISH_ONLY.filter((part) => new RegExp(`(?<![A-Za-z])${escapeRegExp(part)}(?![A-Za-z])`).test(words))).toEqual([]);
          expect(await page.getByTestId('attempt-kind').first().textContent()).toBe('доставка');
          expect(await page.getByTestId('check-verdict').allTextContents()).toContain('ошибка');
          expect(await page.locator('[data-case="bad_signature"]').getByTestId('check-advice').textContent()).toMatch(/^Принят колбэк с неверной подписью \(200\): любой, кто доберётся/);
        }
        await expectClean(watched);
      }
      expect(heights['phone'], `the phone page is ${heights['phone']} px tall`).toBeLessThan(PHONE_HEIGHT_LIMIT);
    });
  }

  it('ru: the clock field takes Russian units and says the step in Russian; anything else gets a Russian error', async () => {
    const watched = tabs.phone;
    const { page } = watched;
    await forgetStorage(page, sandbox.url);
    await page.goto(`${sandbox.url}/_sandbox/?lang=ru`);
    await page.getByTestId('trades-total').filter({ hasText: /\d/ }).waitFor();
    expect(await page.getByTestId('advance-input').getAttribute('placeholder')).toBe('10 мин');
    const before = sandbox.sandbox.clock.now();
    for (const [by, said, ms] of [
      ['10 мин', '10 мин', 600_000],
      ['2ч', '2 ч', 7_200_000],
      ['1 д', '1 д', 86_400_000],
      ['90m', '90 мин', 5_400_000],
    ] as const) {
      const moved = sandbox.sandbox.clock.now();
      await page.getByTestId('advance-input').fill(by);
      await page.getByTestId('advance').click();
      await page
        .getByTestId('message')
        .filter({ hasText: `Часы переведены на ${said}, теперь` })
        .waitFor();
      expect(sandbox.sandbox.clock.now() - moved).toBe(ms);
    }
    const moved = sandbox.sandbox.clock.now();
    await page.getByTestId('advance-input').fill('10 лет');
    await page.getByTestId('advance').click();
    await page.getByTestId('message').filter({ hasText: '«10 лет» — не длительность' }).waitFor();
    expect(await page.getByTestId('message').getAttribute('class')).toContain('error');
    expect(await page.getByTestId('advance-input').getAttribute('aria-invalid')).toBe('true');
    await page.getByTestId('advance-input').fill('3651 д');
    await page.getByTestId('advance').click();
    await page.getByTestId('message').filter({ hasText: 'не больше чем на 10 лет' }).waitFor();
    expect(sandbox.sandbox.clock.now()).toBe(moved);
    expect(moved - before).toBe(600_000 + 7_200_000 + 86_400_000 + 5_400_000);
    await expectClean(watched);
  });
});
