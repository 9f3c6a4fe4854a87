import type { IntegrationReport, MerchantCoverage } from '../../report/report-schema.js';
import type { DashboardApi } from './dashboard-api.js';
import type { DashboardDom } from './dashboard-dom.js';

const STATUS_CLASS = { not_seen: 'muted', seen: '', handled: 'ok-text', wrong: 'error-text' } as const;

/**
 * The "Integration report" panel: reads GET /_sandbox/report at start and on Refresh, and
 * shows a table of mistakes per merchant, the coverage rows per merchant, and the notes, in
 * the page's language: the mistake lines from the report's counts (raw values such as error
 * codes and field names as they are), the coverage details and notes from their codes
 * (`detail_code`, `detail_params`), a detail without a code as the server wrote it.
 */
export function dashboardReport(dom: DashboardDom, api: DashboardApi): void {
  const { h, fill, byTestId, t, said } = dom;
  const result = byTestId('report-result');
  const refresh = byTestId<HTMLButtonElement>('report-refresh');
  const who = (m: { merchant: string; name?: string | undefined; workspace?: string | undefined }) =>
    h('td', {}, m.name ?? '', h('div', { class: 'mono small muted' }, m.merchant), m.workspace ? h('div', { class: 'small muted' }, `/w/${m.workspace}`) : null);

  function mistakes(report: IntegrationReport): Node[] {
    if (report.merchants.length === 0) return [h('p', { class: 'ok-text', testid: 'report-summary' }, t('report.none'))];
    const rows = report.merchants.map((m) => {
      const details = [
        ...m.unauthorized.map((u) => t('mistake.unauthorized', { cause: u.cause, n: u.count })),
        ...m.invalid.map((i) => t('mistake.invalid', { code: i.code, field: i.field, n: i.count })),
        m.duplicate_orders > 0 ? t('mistake.duplicateOrders', { n: m.duplicate_orders }) : '',
        m.callbacks.answered_non_2xx > 0 ? t('mistake.answeredNon2xx', { n: m.callbacks.answered_non_2xx }) : '',
        m.callbacks.timed_out > 0 ? t('mistake.timedOut', { n: m.callbacks.timed_out }) : '',
        m.callbacks.never_acknowledged > 0 ? t('mistake.neverAcknowledged', { n: m.callbacks.never_acknowledged }) : '',
        m.callbacks.accepted_bad_signature > 0 ? t('mistake.acceptedBadSignature', { n: m.callbacks.accepted_bad_signature }) : '',
        // The rule's reason is in English, as the sandbox logged it.
        m.callbacks.wrong_acknowledgement ? t('mistake.wrongAcknowledgement', { n: m.callbacks.wrong_acknowledgement }) : '',
        m.callbacks.wrong_acknowledgement_reason ?? '',
      ].filter((line) => line !== '');
      return h(
        'tr',
        { testid: 'report-merchant', 'data-merchant': m.merchant },
        who(m),
        h('td', { class: 'num', testid: 'report-total' }, m.total),
        h('td', {}, ...details.map((line) => h('div', { testid: 'report-line' }, line))),
      );
    });
    return [
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
    ];
  }

  function coverage(m: MerchantCoverage): Node {
    const rows = m.rows.map((row) =>
      h(
        'tr',
        { testid: 'coverage-row', 'data-row': row.id, 'data-status': row.status },
        h('td', {}, t(`coverage.${row.id}`), h('div', { class: 'mono small muted' }, row.id)),
        h('td', { class: STATUS_CLASS[row.status] || undefined, testid: 'coverage-status' }, t(`report.status.${row.status}`)),
        h(
          'td',
          {},
          row.trade ? h('div', { class: 'mono small' }, row.trade) : null,
          row.detail === undefined ? '' : h('span', { testid: 'coverage-detail' }, said({ text: row.detail, code: row.detail_code, params: row.detail_params })),
        ),
      ),
    );
    return h(
      'div',
      { testid: 'coverage-merchant', 'data-merchant': m.merchant },
      h('h4', {}, m.name ? `${m.name} (${m.merchant})` : m.merchant, m.workspace ? ` — /w/${m.workspace}` : ''),
      h(
        'div',
        { class: 'scroll', tabindex: 0 },
        h(
          'table',
          {},
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('report.row')), h('th', { scope: 'col' }, t('report.status')), h('th', { scope: 'col' }, t('report.detail')))),
          h('tbody', {}, ...rows),
        ),
      ),
    );
  }

  function render(report: IntegrationReport): void {
    fill(
      result,
      ...mistakes(report),
      h('h3', {}, t('report.coverage')),
      h('p', { class: 'small muted' }, t('report.coverageExplain')),
      ...(report.coverage.length === 0 ? [h('p', { class: 'muted', testid: 'coverage-none' }, t('report.noCoverage'))] : report.coverage.map(coverage)),
      ...(report.notes.length === 0
        ? []
        : [
            h('h3', {}, t('report.notes')),
            h(
              'ul',
              {},
              ...report.notes.map((note) => h('li', { testid: 'report-note' }, `${note.name ?? note.merchant}: ${said({ text: note.detail, code: note.detail_code, params: note.detail_params })}`)),
            ),
          ]),
    );
  }

  function load(): void {
    refresh.disabled = true;
    api
      .call('GET', '/report')
      .then(render, (error: unknown) => fill(result, h('p', { class: 'error-text', testid: 'report-summary' }, error instanceof Error ? error.message : String(error))))
      .finally(() => (refresh.disabled = false));
  }

  refresh.addEventListener('click', load);
  // Entering the admin token in the dashboard's prompt reads the report again.
  byTestId('login-form').addEventListener('submit', load);
  load();
}
