import type { DriftReport } from './drift-report.js';
import type { Difference } from './drift-types.js';

const cell = (value: Difference['sandbox']) => (value === null ? 'null' : String(value));

/** Rows of a table, padded to the widest cell of each column (the last column is not padded). */
function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) => row.map((value, column) => (column === row.length - 1 ? value : value.padEnd(widths[column] ?? 0))).join('  '));
}

/**
 * The report as text: the differences as a table (probe, aspect, path, sandbox, target), one
 * row for a difference that several probes share, then its notes; the probes not compared, the
 * trades created on the target, and what the run cannot see.
 */
export function formatDrift(report: DriftReport): string {
  const lines: string[] = [];
  const compared = `${report.probes} probe${report.probes === 1 ? '' : 's'} compared, ${report.requests} request${report.requests === 1 ? '' : 's'} to the target`;
  lines.push(`drift: ${report.target} against a sandbox with the profile ${report.profile}: ${compared}`);
  lines.push(`  requests authenticated as ${report.signing.used}: ${report.signing.label}${report.signing.accepted_instead ? ' (the signing the target accepted)' : ''}`);
  if (report.stopped) lines.push('', `STOPPED at ${report.stopped.probe}: ${report.stopped.why.replace(/\.$/, '')}.`, 'Nothing after it was sent.');

  const grouped = new Map<string, { probes: string[]; difference: Difference }>();
  for (const difference of report.differences) {
    const key = JSON.stringify([difference.aspect, difference.path, difference.sandbox, difference.target, difference.note ?? '']);
    const group = grouped.get(key);
    if (group) group.probes.push(difference.probe);
    else grouped.set(key, { probes: [difference.probe], difference });
  }
  lines.push('');
  if (grouped.size === 0) {
    lines.push(report.stopped ? 'No difference in what was compared before the stop.' : 'No difference: the target answered as the sandbox does.');
  } else {
    const rows = [['probe', 'aspect', 'path', 'sandbox', 'target']];
    const notes: string[] = [];
    for (const { probes, difference } of grouped.values()) {
      rows.push([probes.join(', '), difference.aspect, difference.path || '-', cell(difference.sandbox), cell(difference.target)]);
      if (difference.note) notes.push(`  ${probes.join(', ')} ${difference.aspect}: ${difference.note}`);
    }
    lines.push(...table(rows));
    if (notes.length > 0) lines.push('', 'Notes:', ...notes);
    const probes = new Set(report.differences.map((difference) => difference.probe)).size;
    lines.push('', `${report.differences.length} difference${report.differences.length === 1 ? '' : 's'} in ${probes} probe${probes === 1 ? '' : 's'}.`);
  }
  if (report.skipped.length > 0) lines.push('', 'Not compared:', ...report.skipped.map((skip) => `  ${skip.probe}: ${skip.why}`));
  lines.push('', report.trades.length === 0 ? 'Trades created on the target: none.' : 'Trades created on the target:');
  for (const trade of report.trades) lines.push(`  ${trade.id}  order ${trade.order}  ${trade.type || '?'}  (${trade.probe})${trade.url ? `  ${trade.url}` : ''}`);
  if (report.adoptions.length > 0) lines.push('', 'A profile can adopt (--write-profile):', ...report.adoptions.map((a) => `  ${a.key}: ${JSON.stringify(a.value)}  (${a.probe})`));
  lines.push('', 'Not seen from outside:', ...report.cannot_see.map((line) => `  - ${line}`));
  return `${lines.join('\n')}\n`;
}
