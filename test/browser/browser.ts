import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { CHROMIUM, HAS_CHROMIUM, LAUNCH } from './chromium.js';

export { CHROMIUM, HAS_CHROMIUM };
const IN_CI = !!process.env['CI'] && !['0', 'false'].includes(process.env['CI'].toLowerCase());

const MISSING = `the browser tests need Chromium at ${CHROMIUM}. Install it with \`sudo apt-get install -y chromium\` (Debian/Ubuntu), or set DEPOSIT_SANDBOX_CHROMIUM to a Chromium binary.`;

/**
 * describe() for a browser suite. Without Chromium it is skipped with a message saying how
 * to install it, except in CI (CI=true), where it fails instead: CI must run it.
 */
export function describeBrowser(name: string, body: () => void): void {
  if (HAS_CHROMIUM) {
    describe(name, body);
  } else if (IN_CI) {
    describe(name, () => {
      it('finds Chromium', () => {
        throw new Error(`CI=true and ${MISSING}`);
      });
    });
  } else {
    console.warn(`Skipping "${name}": ${MISSING}`);
    describe.skip(name, body);
  }
}

/**
 * A connection to the Chromium the browser project shares between its files
 * (chromium-server.ts), or a Chromium of its own when the file runs outside that project.
 * Closing it closes this file's contexts and connection only.
 */
export function launchBrowser(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  return endpoint ? chromium.connect(endpoint, { timeout: 60_000 }) : chromium.launch(LAUNCH);
}

/**
 * Both presets run the browser in UTC (sandbox time) whatever the machine's zone, since the payment
 * page shows its deadline in the browser's zone; a test of another zone spreads a preset and sets
 * its own `timezoneId`.
 */
const ZONE = 'UTC';
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 860 }, timezoneId: ZONE };
/**
 * A 390 px phone at one device pixel per CSS pixel: the layout, the @media rules and axe's
 * contrast checks are those of any scale, and a scale of 2 makes Chromium paint four times the pixels.
 */
export const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true, timezoneId: ZONE };

/** How often the dashboard polls (POLL_MS in src/pages/client/dashboard-client.ts). */
export const DASHBOARD_POLL_MS = 1500;
/** How often the payment page checks its trade's status (STATUS_POLL_MS in src/pages/client/pay.ts). */
export const STATUS_POLL_MS = 2000;
/** How long the dashboard waits after a keystroke in the order filter before it asks again. */
export const FILTER_DELAY_MS = 250;

/**
 * Opens the dashboard at `url` and signs in with the admin `token`; resolves once it shows the
 * trade count (its first poll answered).
 */
export async function signIn(page: Page, url: string, token: string): Promise<void> {
  await page.goto(url);
  await page.getByTestId('token-input').fill(token);
  await page.getByTestId('token-submit').click();
  await page.getByTestId('trades-total').filter({ hasText: /\d/ }).waitFor();
}

/**
 * A page that remembers its script errors and console errors, so a test can assert that
 * nothing went wrong in the browser (a broken script, or markup the CSP had to block).
 */
export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  problems: string[];
}

/**
 * A new context and page whose scripts' clock stands still (Playwright's clock, paused): their
 * timers (the dashboard's poll, the payment page's status check and countdown, the filter's
 * delay) run only when the test moves the clock on with `page.clock.runFor()` or
 * `runClockUntil()`, so a test waits for no poll in real time and nothing polls in the background.
 */
export async function openPage(browser: Browser, options: BrowserContextOptions): Promise<WatchedPage> {
  const context = await browser.newContext(options);
  // A bound for a hang, not for speed: a page on a loaded 2-core machine has taken 40 s to load.
  context.setDefaultTimeout(60_000);
  const now = Date.now();
  await context.clock.install({ time: now });
  await context.clock.pauseAt(now + 1);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // A 4xx page (a form with errors) logs "Failed to load resource" for itself; failed assets are caught below.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(`console error: ${message.text()}`);
  });
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (response.status() >= 400 && ['stylesheet', 'script', 'image', 'font'].includes(type)) problems.push(`${type} ${response.url()} answered ${response.status()}`);
  });
  // A request still under way when the test navigates the page elsewhere (a dashboard poll at
  // page.goto) is aborted by the browser: that is leaving the page, not a failure of it.
  // Counted when the navigation request leaves, which is before the old page's requests are cut.
  // A fetch the browser reports as ERR_ABORTED was cancelled by the browser itself (the pages
  // never abort one): the event of a poll sent just before a navigation can arrive after the
  // navigation's, so fetches are not held to that order. A server that drops the connection
  // gives another error (ERR_EMPTY_RESPONSE, ERR_CONNECTION_RESET), which still counts.
  let navigations = 0;
  const issuedAt = new WeakMap<object, number>();
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) navigations++;
    issuedAt.set(request, navigations);
  });
  page.on('requestfailed', (request) => {
    const error = request.failure()?.errorText ?? '';
    // A request of an earlier page (a shared tab moved on; that page's server may be closed by now) is not this page's problem.
    if ((issuedAt.get(request) ?? navigations) < navigations) return;
    if (error === 'net::ERR_ABORTED' && request.resourceType() === 'fetch') return;
    if (request.resourceType() !== 'document') problems.push(`${request.resourceType()} ${request.url()} failed: ${error}`);
  });
  return { page, context, problems };
}

/**
 * Forgets what the pages of `origin` (a sandbox's address) kept in this tab and its context: the
 * dashboard's admin token (sessionStorage) and the panels it remembers open (localStorage). A test
 * that loads the dashboard in a tab shared with other tests calls it first, so the dashboard starts
 * as in a new context: signed out, its panels closed as served, without the renderer and the
 * clock's set-up a new context costs Chromium.
 */
export async function forgetStorage(page: Page, origin: string): Promise<void> {
  // Storage is cleared from a page of its origin; the health answer is the smallest one. Always
  // loaded, so that the test's next goto loads its page anew: one that only changes the hash of
  // the page the tab is on (the dashboard of the previous test) would keep that page as it is.
  await page.goto(`${origin}/_sandbox/health`);
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
}

/**
 * Moves the page's clock on by `ms` (a poll's interval) until `done()` holds, so the timers due
 * in each step run (a poll, a status check) and their requests are answered before the next.
 * A step taken while the previous one's requests are still under way finds no timer due and
 * costs nothing.
 */
export async function runClockUntil(page: Page, ms: number, done: () => Promise<boolean>): Promise<void> {
  await expect
    .poll(
      async () => {
        if (await done()) return true;
        await page.clock.runFor(ms);
        return false;
      },
      { timeout: 60_000 },
    )
    .toBe(true);
}

/**
 * Asserts the page ran no injected script and logged no error (besides those `allowed` matches:
 * the 401s a test provokes), then forgets the logged problems.
 */
export async function expectClean(watched: WatchedPage, allowed?: RegExp): Promise<void> {
  const problems = watched.problems.splice(0).filter((problem) => !allowed?.test(problem));
  expect(await watched.page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(problems).toEqual([]);
}

const SCREENSHOTS = fileURLToPath(new URL('../../test-artifacts/screenshots/', import.meta.url));
const WANT_SCREENSHOTS = process.env['SCREENSHOTS'] === '1';

/**
 * With SCREENSHOTS=1, saves a full-page screenshot as test-artifacts/screenshots/<name>.png
 * (git-ignored), for a person to look at; otherwise does nothing: nothing compares them, and
 * painting and encoding a full page costs more than most checks of it. One image pixel per CSS
 * pixel, and the pages have no animation or transition to stop first.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!WANT_SCREENSHOTS) return;
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true, scale: 'css' });
}
