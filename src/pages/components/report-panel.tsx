import { CollapsiblePanel } from './collapsible-panel.js';

/** The dashboard's "Integration report" panel: filled by dashboardReport (client/dashboard-report.ts). */
export function ReportPanel(props: { t: (key: 'report.title' | 'report.explain' | 'report.refresh') => string }) {
  const { t } = props;
  return (
    <CollapsiblePanel name="report" title={t('report.title')} class="report-panel" testid="report-panel">
      <p class="small muted">{t('report.explain')}</p>
      <button type="button" data-testid="report-refresh">
        {t('report.refresh')}
      </button>
      <div data-testid="report-result"></div>
    </CollapsiblePanel>
  );
}
