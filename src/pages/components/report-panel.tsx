/** The dashboard's "Integration report" panel: filled by dashboardReport (assets/dashboard-report.ts). */
export function ReportPanel() {
  return (
    <section class="panel report-panel" data-testid="report-panel">
      <h2>Integration report</h2>
      <p class="small muted">
        Your integration's mistakes the sandbox saw, per merchant: refused requests (401, 422), duplicate orders, callbacks not acknowledged, and polling faster than once a second.
      </p>
      <button type="button" data-testid="report-refresh">
        Refresh
      </button>
      <div data-testid="report-result"></div>
    </section>
  );
}
