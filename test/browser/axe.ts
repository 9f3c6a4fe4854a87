import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * axe-core, given a setTimeout of its own. axe waits a zero-delay setTimeout for each rule's
 * result, and the page's timers wait for its clock, which openPage() stops: axe's zero-delay
 * callbacks run a task later (a message to itself) instead, and its other delays (time limits
 * for frames and preloads, cleared once they are done) still go to the page's setTimeout.
 */
const AXE_SOURCE = `(function (setTimeout) {
${readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')}
}).call(window, (function (pageSetTimeout) {
  return function (callback, delay, ...args) {
    if (delay) return pageSetTimeout(callback, delay, ...args);
    const channel = new MessageChannel();
    channel.port1.onmessage = () => callback(...args);
    channel.port2.postMessage(undefined);
    return 0;
  };
})(window.setTimeout));`;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules) on the page as it is now and returns the serious
 * and critical violations. axe is evaluated through the DevTools protocol, which the pages'
 * Content-Security-Policy does not apply to, so nothing about the pages is loosened for it.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluating axe's 650 kB costs more than a run of it: once per document, not once per run.
  if (!(await page.evaluate(() => typeof (window as unknown as { axe?: { run?: unknown } }).axe?.run === 'function'))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(context: Document, options: unknown): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }
    ).axe;
    const { violations } = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
  return results.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** How far the page scrolls sideways (0 when nothing is wider than the viewport). */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}
