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

/**
 * The coverage a verdict is judged on: over every workspace when the report has it (a sharded
 * suite meets each row in some workspace, not in all), else each merchant's own.
 */
const judged = (report: IntegrationReport): MerchantCoverage[] => report.coverage_merged ?? report.coverage;

/** The rows that make `--fail-on` fail, one line each ("Demo Shop (…): callback.confirmed wrong: …"). */
export function failingRows(report: IntegrationReport, failOn: FailOn): string[] {
  return judged(report).flatMap((m) =>
    m.rows
      .filter((row) => rowFails(row, failOn))
      .map((row) => `${label(m)}: ${row.id} ${row.status}${row.workspace !== undefined ? ` (workspace ${row.workspace})` : ''}${row.detail ? `: ${row.detail}` : ''}`),
  );
}

/** What `credits` means, under the Markdown heading (the JUnit suite has it as a property). */
export const CREDITS: Record<NonNullable<MerchantCoverage['credits']>, string> = {
  checked: 'Credits checked: a callback row is handled only when the balance probe (serve --probe) showed the right credit',
  not_checked: 'Credits not checked: callback rows were judged by the HTTP answers alone; start the sandbox with --probe <url> to check them',
};

const what = (row: CoverageRow) => [row.workspace !== undefined ? `workspace ${row.workspace}` : '', row.trade !== undefined ? `trade ${row.trade}` : '', row.detail ?? ''].filter(Boolean).join(': ');

/**
 * A JUnit suite per merchant's coverage, a test case per row: handled passes; wrong fails with
 * the trade and the cause; not_seen and seen are skipped with a message (so the CI page shows
 * the gaps without failing), unless `--fail-on not-handled` makes them failures. At the root of a
 * server with workspaces, one suite per merchant over all of them (coverage_merged): what the
 * suite as a whole met, instead of a suite per workspace full of rows another workspace met.
 */
export function coverageSuites(report: IntegrationReport, failOn?: FailOn): JUnitSuite[] {
  const merged = report.coverage_merged !== undefined;
  return judged(report).map((m: MerchantCoverage) => ({
    name: `deposit-sandbox coverage${merged ? ' (all workspaces)' : ''}: ${label(m)}`,
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

/** The coverage as Markdown tables, one per merchant (first over all workspaces, when the report has it). */
export function coverageMarkdown(report: IntegrationReport): string {
  if (report.coverage.length === 0) return '';
  let md = '';
  for (const m of report.coverage_merged ?? []) {
    md += `\n## Coverage over all workspaces: ${cell(label(m))}\n\n| row | status | workspace | trade | detail |\n|---|---|---|---|---|\n`;
    for (const row of m.rows)
      md += `| ${row.id} | ${row.status} | ${row.status === 'not_seen' ? '' : cell(row.workspace ?? 'default')} | ${row.trade ?? ''} | ${cell(row.detail ?? (row.status === 'not_seen' ? `to exercise it, ${COVERAGE_ROWS[row.id].exercise}` : ''))} |\n`;
  }
  for (const m of report.coverage) {
    md += `\n## Coverage: ${cell(label(m))}\n\n${m.credits !== undefined ? `${CREDITS[m.credits]}.\n\n` : ''}| row | status | trade | detail |\n|---|---|---|---|\n`;
    for (const row of m.rows)
      md += `| ${row.id} | ${row.status} | ${row.trade ?? ''} | ${cell(row.detail ?? (row.status === 'not_seen' ? `to exercise it, ${COVERAGE_ROWS[row.id].exercise}` : ''))} |\n`;
  }
  return md;
}
