/** The dashboard's "Integration report" panel: filled by dashboardReport (client/dashboard-report.ts). */
export function ReportPanel(props: { t: (key: 'report.title' | 'report.explain' | 'report.refresh') => string }) {
  const { t } = props;
  return (
    <section class="panel report-panel" data-testid="report-panel" aria-labelledby="report-title">
      <h2 id="report-title">{t('report.title')}</h2>
      <p class="small muted">{t('report.explain')}</p>
      <button type="button" data-testid="report-refresh">
        {t('report.refresh')}
      </button>
      <div data-testid="report-result"></div>
    </section>
  );
}
