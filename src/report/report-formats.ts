import { junitXml, type JUnitCase, type JUnitSuite } from '../junit/junit-xml.js';
import { cell, classname, coverageMarkdown, coverageSuites, type FailOn, label } from './coverage-formats.js';
import type { IntegrationReport, MerchantMistakes, ReportNote } from './report-schema.js';

interface Check {
  name: string;
  /** How many mistakes of this kind, and the lines that describe them. */
  count: (m: MerchantMistakes) => number;
  lines: (m: MerchantMistakes) => string[];
  fix: string;
  /** Whether the check is shown for this merchant (default: always). */
  shown?: (m: MerchantMistakes) => boolean;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The checks of the report, one JUnit test case (and one Markdown row) each. */
export function reportChecks(): Check[] {
  return [
    {
      name: 'authenticates every request (no 401)',
      count: (m) => m.unauthorized.reduce((s, u) => s + u.count, 0),
      lines: (m) => m.unauthorized.map((u) => `401 ${u.cause}: ${u.count}`),
      fix: 'Send X-Auth on create and build, X-Token on get, with the token or the signature of the merchant named in the request; the 401 answer says what was expected.',
    },
    {
      name: 'sends valid requests (no 422)',
      count: (m) => m.invalid.reduce((s, i) => s + i.count, 0),
      lines: (m) => m.invalid.map((i) => `422 ${i.code} on ${i.field}: ${i.count}`),
      fix: "Fix the fields named; each 422 answer's error.details says what each must be.",
    },
    {
      name: 'uses each order once',
      count: (m) => m.duplicate_orders,
      lines: (m) => [`422 duplicate_order: ${m.duplicate_orders}`],
      fix: 'Send a new order for each trade; to read a trade again, GET it by its id.',
    },
    {
      name: 'answers callbacks with 2xx',
      count: (m) => m.callbacks.answered_non_2xx,
      lines: (m) => [`callback attempts answered with a status other than 2xx: ${m.callbacks.answered_non_2xx}`],
      fix: 'Answer 2xx to every correctly signed callback (repeats and older states too), without redirects.',
    },
    {
      name: 'answers callbacks within the timeout',
      count: (m) => m.callbacks.timed_out,
      lines: (m) => [`callback attempts that timed out: ${m.callbacks.timed_out}`],
      fix: 'Answer 2xx quickly and do slow work after answering.',
    },
    {
      name: 'acknowledges every callback',
      count: (m) => m.callbacks.never_acknowledged,
      lines: (m) => [`callbacks never acknowledged (failed after the last retry): ${m.callbacks.never_acknowledged}`],
      fix: 'Make the callback URL reachable from the sandbox and answer 2xx.',
    },
    {
      name: 'refuses forged callbacks',
      count: (m) => m.callbacks.accepted_bad_signature,
      lines: (m) => [`callbacks with a wrong X-Signature accepted with 2xx: ${m.callbacks.accepted_bad_signature}`],
      fix: "Verify X-Signature (hex HMAC-SHA256 of the raw body with the merchant's secret) and answer 401 when it does not match.",
    },
    {
      // Only under a provider profile whose acknowledgement reads the body (ok-text, code-zero), once a wrong one is seen.
      name: 'acknowledges callbacks as the provider profile asks',
      count: (m) => m.callbacks.wrong_acknowledgement ?? 0,
      lines: (m) => [
        `callback attempts answered 2xx without the acknowledgement the profile asks for: ${m.callbacks.wrong_acknowledgement ?? 0}`,
        ...(m.callbacks.wrong_acknowledgement_reason !== undefined ? [`the last: ${m.callbacks.wrong_acknowledgement_reason}`] : []),
      ],
      fix: 'Answer every correctly signed callback with exactly what the profile\'s callbacks.acknowledge asks: a 2xx with the body OK (ok-text) or with the JSON {"code":0} (code-zero).',
      shown: (m) => m.callbacks.wrong_acknowledgement !== undefined,
    },
  ];
}

/** The checks shown for a merchant. */
const checksFor = (checks: Check[], m: MerchantMistakes) => checks.filter((check) => check.shown?.(m) ?? true);

/**
 * The report as JUnit XML: a suite per merchant with a mistake, a case per check (failed when it
 * has mistakes); then a suite per merchant's coverage, a case per row (src/report/coverage-formats.ts).
 */
export function reportJunit(report: IntegrationReport, failOn?: FailOn): string {
  const checks = reportChecks();
  const suites: JUnitSuite[] = report.merchants.map((m) => ({
    name: `deposit-sandbox integration: ${label(m)}`,
    properties: { merchant: m.merchant, ...(m.workspace !== undefined ? { workspace: m.workspace } : {}), mistakes: String(m.total) },
    cases: checksFor(checks, m).map((check): JUnitCase => {
      const n = check.count(m);
      const base = { classname: classname('integration', m), name: check.name };
      if (n === 0) return base;
      return {
        ...base,
        failure: { message: `${plural(n, 'mistake')}: ${check.lines(m).join('; ')}`, type: 'integration_mistake', details: `${check.lines(m).join('\n')}\n\nWhat to do: ${check.fix}\n` },
      };
    }),
  }));
  if (suites.length === 0) {
    suites.unshift({ name: 'deposit-sandbox integration', cases: [{ classname: 'deposit-sandbox.integration', name: 'no mistake seen' }] });
  }
  suites.push(...coverageSuites(report, failOn));
  // Advice passes: it is shown, never a failure.
  if (report.notes.length > 0) {
    suites.push({
      name: 'deposit-sandbox integration notes (advice, not mistakes)',
      cases: report.notes.map((note) => ({ classname: classname('notes', note), name: `${note.id}: trade ${note.trade}`, output: `${noteLine(note)}\n` })),
    });
  }
  return junitXml(suites, 'deposit-sandbox integration report');
}

/** The report as Markdown (for a CI job summary or a pull request comment). */
export function reportMarkdown(report: IntegrationReport): string {
  let md = '# deposit-sandbox integration report\n\n';
  md += report.merchants.length === 0 ? 'No mistake seen.\n' : `${plural(report.total, 'mistake')} of ${plural(report.merchants.length, 'merchant')}.\n`;
  const checks = reportChecks();
  for (const m of report.merchants) {
    md += `\n## ${cell(label(m))}: ${plural(m.total, 'mistake')}\n\n| check | mistakes | details | what to do |\n|---|---:|---|---|\n`;
    for (const check of checksFor(checks, m)) {
      const n = check.count(m);
      md += `| ${check.name} | ${n} | ${n === 0 ? '' : cell(check.lines(m).join('<br>'))} | ${n === 0 ? '' : check.fix} |\n`;
    }
  }
  md += coverageMarkdown(report);
  if (report.notes.length > 0) {
    md += '\n## Notes (advice, not mistakes)\n\n';
    for (const note of report.notes) md += `- ${cell(noteLine(note))}\n`;
  }
  return md;
}

/** A note in one line: whose, and what. */
const noteLine = (note: ReportNote) => `${label(note)}: ${note.detail}`;
