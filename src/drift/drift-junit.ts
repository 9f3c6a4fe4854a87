import type { JUnitCase, JUnitSuite } from '../junit/junit-xml.js';
import type { DriftReport } from './drift-report.js';

/**
 * The report as a JUnit suite: a test case per probe (`create.any_bank`, ..., `callback.ecom`),
 * failed with its differences, skipped with why it was not compared; a stopped run adds a failed
 * case `drift.stopped`.
 */
export function driftSuite(report: DriftReport): JUnitSuite {
  const cases: JUnitCase[] = report.outcomes.map((outcome) => {
    const classname = `drift.${outcome.probe.split('.')[0] ?? 'probe'}`;
    const base = { classname, name: `${outcome.probe}: ${outcome.what}` };
    if (outcome.result === 'skipped') return { ...base, skipped: outcome.why ?? 'not compared' };
    if (outcome.result === 'same') return base;
    const own = report.differences.filter((difference) => difference.probe === outcome.probe);
    return {
      ...base,
      failure: {
        message: `${own.length} difference${own.length === 1 ? '' : 's'} from the sandbox`,
        type: 'drift',
        details: own.map((d) => `${d.aspect}${d.path ? ` ${d.path}` : ''}: sandbox ${String(d.sandbox)}, target ${String(d.target)}${d.note ? ` (${d.note})` : ''}`).join('\n'),
      },
    };
  });
  if (report.stopped) cases.push({ classname: 'drift', name: 'drift.stopped', failure: { message: `stopped at ${report.stopped.probe}`, type: 'stopped', details: report.stopped.why } });
  return { name: 'deposit-sandbox drift', cases, properties: { target: report.target, profile: report.profile, requests: String(report.requests) } };
}
