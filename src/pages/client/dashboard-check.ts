import type { CheckReport } from '../../check-callback/check-report.js';
import type { DashboardApi } from './dashboard-api.js';
import type { DashboardDom } from './dashboard-dom.js';

/**
 * The "Check a callback receiver" panel: posts {url, merchant} to /_sandbox/check-callback
 * and shows a verdict per case.
 */
export function dashboardCheck(dom: DashboardDom, api: DashboardApi): void {
  const { h, fill, byTestId, t, word, explain } = dom;
  const form = byTestId<HTMLFormElement>('check-form');
  const url = byTestId<HTMLInputElement>('check-url');
  const merchant = byTestId<HTMLInputElement>('check-merchant');
  const run = byTestId<HTMLButtonElement>('check-run');
  const result = byTestId('check-result');
  const VERDICT_CLASS: Record<string, string> = { ok: 'delivered', warning: 'pending', flagged: 'failed', skipped: '' };

  function render(report: CheckReport): void {
    const rows = report.cases.map((c) =>
      h(
        'tr',
        { testid: 'check-case', 'data-case': c.case },
        h('td', {}, h('span', { class: `badge ${VERDICT_CLASS[c.verdict] ?? ''}`, testid: 'check-verdict', 'data-verdict': c.verdict }, word('verdict', c.verdict))),
        h('td', { testid: 'check-title' }, explain.caseTitle(c)),
        h(
          'td',
          { class: 'num', testid: 'check-status' },
          c.status === null ? (c.verdict === 'skipped' ? '—' : t('callback.noAnswer')) : `${c.status} · ${t('unit.ms', { ms: Math.round(c.duration_ms) })}`,
        ),
        h(
          'td',
          {},
          c.verdict === 'ok' && c.case !== 'older_state'
            ? ''
            : // The server's English advice stays in the title of a translated one.
              h(
                'p',
                { class: c.verdict === 'ok' ? 'small muted' : c.verdict === 'warning' ? 'warn-text' : 'error-text', testid: 'check-advice', title: dom.lang === 'en' ? undefined : c.message },
                explain.advice(c),
              ),
        ),
      ),
    );
    const warned = report.warnings > 0 ? t('check.warnings', { count: report.warnings }) : '';
    fill(
      result,
      h(
        'p',
        { testid: 'check-summary', class: report.passed ? 'ok-text' : 'error-text' },
        report.passed ? t('check.passed', { count: report.cases.length, warned }) : t('check.flagged', { count: report.cases.length, flagged: report.flagged, warned }),
      ),
      h(
        'div',
        { class: 'scroll', tabindex: 0 },
        h(
          'table',
          {},
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'col' }, t('check.verdict')),
              h('th', { scope: 'col' }, t('check.sent')),
              h('th', { scope: 'col' }, t('col.answer')),
              h('th', { scope: 'col' }, t('check.fix')),
            ),
          ),
          h('tbody', {}, ...rows),
        ),
      ),
    );
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const target = url.value.trim();
    if (!target) {
      fill(result, h('p', { class: 'error-text', testid: 'check-summary' }, t('check.enterUrl')));
      return;
    }
    const body: { url: string; merchant?: string } = { url: target };
    if (merchant.value.trim()) body.merchant = merchant.value.trim();
    run.disabled = true;
    fill(result, h('p', { class: 'muted', testid: 'check-running' }, t('check.running', { url: target })));
    api
      .call('POST', '/check-callback', { json: body })
      .then(render, (error: unknown) => fill(result, h('p', { class: 'error-text', testid: 'check-summary' }, error instanceof Error ? error.message : String(error))))
      .finally(() => (run.disabled = false));
  });
}
