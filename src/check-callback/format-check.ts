import type { CheckCaseResult, CheckReport } from './check-report.js';

const LABEL: Record<CheckCaseResult['verdict'], string> = { ok: 'ok', warning: 'WARNING', flagged: 'FLAGGED', skipped: 'skipped' };
const TITLE_WIDTH = 34;

/** The header line of a receiver check, printed before the first case; a provider profile other than `sandbox` is named. */
export function formatCheckHeader(url: string, merchant: string, name?: string, profile?: string): string {
  const under = profile !== undefined && profile !== 'sandbox' ? `, under the provider profile ${profile}` : '';
  return `Checking the callback receiver ${url} as merchant ${merchant}${name ? ` (${name})` : ''}${under}\n\n`;
}

/** One case as a line (and its advice on the next line, unless there is nothing to add). */
export function formatCase(result: CheckCaseResult): string {
  const answer = result.status !== null ? `${result.status} in ${result.duration_ms} ms` : result.verdict === 'skipped' ? '-' : 'no answer';
  const line = `  ${LABEL[result.verdict].padEnd(8)} ${result.title.padEnd(TITLE_WIDTH)} ${answer}\n`;
  const advise = result.verdict !== 'ok' || result.case === 'older_state';
  return advise ? `${line}           ${result.message}\n` : line;
}

/** The closing lines: what was flagged, or that the receiver passed. */
export function formatCheckSummary(report: CheckReport): string {
  const warned = report.warnings > 0 ? ` (${report.warnings} warning${report.warnings === 1 ? '' : 's'})` : '';
  if (report.passed) return `\nThe receiver passed all ${report.cases.length} checks${warned}.\n`;
  return `\n${report.flagged} of ${report.cases.length} checks flagged${warned}: fix them and run the check again.\n`;
}

/** The whole report as text (the CLI prints it case by case instead). */
export function formatCheckReport(report: CheckReport, name?: string, profile?: string): string {
  return formatCheckHeader(report.url, report.merchant, name, profile) + report.cases.map(formatCase).join('') + formatCheckSummary(report);
}

/**
 * Said after every check run without --probe, passed or not: answers alone cannot show a double
 * credit, so the run is no clean bill for credits. Shows how to add the probe.
 */
export function formatNoProbeNote(url: string): string {
  let probe = 'http://127.0.0.1:3000/probe';
  try {
    probe = new URL('/probe', url).href;
  } catch {
    // keep the example
  }
  return (
    "\nCredits were NOT checked: without --probe this check reads your receiver's answers only, and a receiver that credits an order twice still answers 200.\n" +
    'To check credits, add a balance probe to your test environment (GET <probe>?order=<order> answering {"state": "confirmed", "credited_cents": 31250}; examples in docs/callback-fuzzer.md) and run:\n' +
    `  deposit-sandbox check-callback ${url} --probe ${probe}\n`
  );
}
