import type { IntegrationReport } from '../../report/report-schema.js';
import type { DashboardApi } from './dashboard-api.js';
import type { DashboardDom } from './dashboard-dom.js';

/**
 * The "Integration report" panel: reads GET /_sandbox/report at start and on Refresh, and
 * shows a table of mistakes per merchant. The lines name what was counted as the report does
 * (status, code, field), like the history notes, in English.
 */
export function dashboardReport(dom: DashboardDom, api: DashboardApi): void {
  const { h, fill, byTestId, t } = dom;
  const result = byTestId('report-result');
  const refresh = byTestId<HTMLButtonElement>('report-refresh');

  function render(report: IntegrationReport): void {
    if (report.merchants.length === 0) {
      fill(result, h('p', { class: 'ok-text', testid: 'report-summary' }, t('report.none')));
      return;
    }
    const rows = report.merchants.map((m) => {
      const details = [
        ...m.unauthorized.map((u) => `401 ${u.cause}: ${u.count}`),
        ...m.invalid.map((i) => `422 ${i.code} on ${i.field}: ${i.count}`),
        m.duplicate_orders > 0 ? `duplicate orders: ${m.duplicate_orders}` : '',
        m.callbacks.answered_non_2xx > 0 ? `callbacks answered non-2xx: ${m.callbacks.answered_non_2xx}` : '',
        m.callbacks.timed_out > 0 ? `callbacks timed out: ${m.callbacks.timed_out}` : '',
        m.callbacks.never_acknowledged > 0 ? `callbacks never acknowledged: ${m.callbacks.never_acknowledged}` : '',
        m.callbacks.accepted_bad_signature > 0 ? `forged callbacks accepted: ${m.callbacks.accepted_bad_signature}` : '',
      ].filter((line) => line !== '');
      return h(
        'tr',
        { testid: 'report-merchant', 'data-merchant': m.merchant },
        h('td', {}, m.name ?? '', h('div', { class: 'mono small muted' }, m.merchant)),
        h('td', { class: 'num', testid: 'report-total' }, m.total),
        h('td', {}, ...details.map((line) => h('div', { testid: 'report-line' }, line))),
      );
    });
    fill(
      result,
      h('p', { class: 'error-text', testid: 'report-summary' }, t('report.total', { count: report.total })),
      h(
        'div',
        { class: 'scroll', tabindex: 0 },
        h(
          'table',
          {},
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('report.merchant')), h('th', { scope: 'col' }, t('report.mistakes')), h('th', { scope: 'col' }, t('report.what')))),
          h('tbody', {}, ...rows),
        ),
      ),
    );
  }

  function load(): void {
    refresh.disabled = true;
    api
      .request<IntegrationReport>('GET', '/report')
      .then(render, (error: unknown) => fill(result, h('p', { class: 'error-text', testid: 'report-summary' }, error instanceof Error ? error.message : String(error))))
      .finally(() => (refresh.disabled = false));
  }

  refresh.addEventListener('click', load);
  // Entering the admin token in the dashboard's prompt reads the report again.
  byTestId('login-form').addEventListener('submit', load);
  load();
}
