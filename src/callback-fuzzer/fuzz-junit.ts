import type { CheckReport } from '../check-callback/check-report.js';
import type { JUnitCase, JUnitSuite } from '../junit/junit-xml.js';
import { INVARIANTS, SANDBOX_FUZZ_WORDS, VIOLATION_KINDS, type FuzzWords } from './find-violations.js';
import { formatFuzzReport } from './format-fuzz.js';
import type { FuzzReport } from './fuzz-receiver.js';

/** The fuzzer's result as a JUnit suite: one case per invariant, failed with the shrunk schedule. */
export function fuzzSuite(report: FuzzReport, url: string, words: FuzzWords = SANDBOX_FUZZ_WORDS): JUnitSuite {
  const violations = report.failure?.violations ?? [];
  const cases: JUnitCase[] = VIOLATION_KINDS.map((kind) => {
    const invariant = INVARIANTS[kind];
    const base = { classname: 'check-callback.invariants', name: invariant.title };
    if (invariant.needsProbe && !report.probe) return { ...base, skipped: 'needs the balance probe (--probe <url>)' };
    const violation = violations.find((v) => v.kind === kind);
    if (!violation) return base;
    return { ...base, failure: { message: violation.cause, type: kind, details: formatFuzzReport(report, words) } };
  });
  return { name: 'check-callback', cases, properties: { url, merchant: report.merchant, seed: String(report.seed), runs: String(report.runs), schedules: String(report.schedules) } };
}

/** The five-case check (without --probe and --runs) as a JUnit suite. */
export function checkSuite(report: CheckReport): JUnitSuite {
  return {
    name: 'check-callback',
    properties: { url: report.url, merchant: report.merchant },
    cases: report.cases.map((c) => {
      const base = { classname: 'check-callback.cases', name: c.title };
      if (c.verdict === 'skipped') return { ...base, skipped: c.message };
      if (c.verdict === 'flagged') return { ...base, failure: { message: c.message, type: c.case, details: `expected ${c.expected}; got ${c.status ?? 'no answer'}. ${c.message}` } };
      return c.verdict === 'warning' ? { ...base, output: `warning: ${c.message}` } : base;
    }),
  };
}
