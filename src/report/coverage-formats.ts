import type { JUnitCase, JUnitSuite } from '../junit/junit-xml.js';
import { COVERAGE_ROWS, rowDone } from './coverage-rows.js';
import type { CoverageRow, IntegrationReport, MerchantCoverage } from './report-schema.js';

/** `report --fail-on`: `wrong` fails on a row answered wrong; `not-handled` also on a row not yet handled (or, for a row that is only ever seen, not seen). */
export const FAIL_ON = ['wrong', 'not-handled'] as const;
export type FailOn = (typeof FAIL_ON)[number];

/** Field names and ids come from requests: no pipe or line break may end a Markdown table cell early. */
export const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
export const label = (m: { merchant: string; name?: string | undefined; workspace?: string | undefined }) =>
  `${m.name ? `${m.name} (${m.merchant})` : m.merchant}${m.workspace !== undefined ? ` in workspace ${m.workspace}` : ''}`;
/** A JUnit classname: the merchant, after its workspace when it has one. */
export const classname = (kind: string, m: { merchant: string; workspace?: string | undefined }) => `deposit-sandbox.${kind}.${m.workspace !== undefined ? `${m.workspace}.` : ''}${m.merchant}`;

/** Whether a row makes `report --fail-on <failOn>` fail. */
export function rowFails(row: CoverageRow, failOn: FailOn | undefined): boolean {
  if (failOn === undefined) return false;
  return row.status === 'wrong' || (failOn === 'not-handled' && !rowDone(row.id, row.status));
}

/** The rows that make `--fail-on` fail, one line each ("Demo Shop (…): callback.confirmed wrong: …"). */
export function failingRows(report: IntegrationReport, failOn: FailOn): string[] {
  return report.coverage.flatMap((m) => m.rows.filter((row) => rowFails(row, failOn)).map((row) => `${label(m)}: ${row.id} ${row.status}${row.detail ? `: ${row.detail}` : ''}`));
}

/** What `credits` means, under the Markdown heading (the JUnit suite has it as a property). */
export const CREDITS: Record<NonNullable<MerchantCoverage['credits']>, string> = {
  checked: 'Credits checked: a callback row is handled only when the balance probe (serve --probe) showed the right credit',
  not_checked: 'Credits not checked: callback rows were judged by the HTTP answers alone; start the sandbox with --probe <url> to check them',
};

const what = (row: CoverageRow) => [row.trade !== undefined ? `trade ${row.trade}` : '', row.detail ?? ''].filter(Boolean).join(': ');

/**
 * A JUnit suite per merchant's coverage, a test case per row: handled passes; wrong fails with
 * the trade and the cause; not_seen and seen are skipped with a message (so the CI page shows
 * the gaps without failing), unless `--fail-on not-handled` makes them failures.
 */
export function coverageSuites(report: IntegrationReport, failOn?: FailOn): JUnitSuite[] {
  return report.coverage.map((m: MerchantCoverage) => ({
    name: `deposit-sandbox coverage: ${label(m)}`,
    properties: { merchant: m.merchant, ...(m.workspace !== undefined ? { workspace: m.workspace } : {}), ...(m.credits !== undefined ? { credits: m.credits } : {}) },
    cases: m.rows.map((row): JUnitCase => {
      const info = COVERAGE_ROWS[row.id];
      const base = { classname: classname('coverage', m), name: `${row.id}: ${info.title}` };
      if (row.status === 'handled') return base;
      if (row.status === 'wrong') return { ...base, failure: { message: `wrong: ${what(row)}`, type: 'coverage_wrong', details: `${what(row)}\n` } };
      const message = row.status === 'not_seen' ? `not seen: to exercise it, ${info.exercise}` : `seen, not handled: ${what(row) || 'met, with no answer judged yet'}`;
      if (rowFails(row, failOn)) return { ...base, failure: { message, type: 'coverage_not_handled', details: `${message}\n` } };
      return { ...base, skipped: message };
    }),
  }));
}

/** The coverage as Markdown tables, one per merchant. */
export function coverageMarkdown(report: IntegrationReport): string {
  if (report.coverage.length === 0) return '';
  let md = '';
  for (const m of report.coverage) {
    md += `\n## Coverage: ${cell(label(m))}\n\n${m.credits !== undefined ? `${CREDITS[m.credits]}.\n\n` : ''}| row | status | trade | detail |\n|---|---|---|---|\n`;
    for (const row of m.rows)
      md += `| ${row.id} | ${row.status} | ${row.trade ?? ''} | ${cell(row.detail ?? (row.status === 'not_seen' ? `to exercise it, ${COVERAGE_ROWS[row.id].exercise}` : ''))} |\n`;
  }
  return md;
}
