import { STATUS_RANK } from './coverage-rows.js';
import type { CoverageRow, MerchantCoverage } from './report-schema.js';

/**
 * One coverage per merchant over every workspace's: each row at the highest status any
 * workspace reached (wrong above handled above seen above not_seen: a wrong answer anywhere is
 * never hidden), with the trade, detail and workspace of the row that set it. Merchants in the
 * order they first appear; rows in the documented order.
 *
 * @example
 * mergeCoverage([{ merchant: 'm', workspace: 'w1', rows }, { merchant: 'm', workspace: 'w2', rows }]) // [{ merchant: 'm', rows }]
 */
export function mergeCoverage(coverage: readonly MerchantCoverage[]): MerchantCoverage[] {
  const merged = new Map<string, MerchantCoverage>();
  for (const entry of coverage) {
    const tagged = entry.rows.map((row): CoverageRow => (entry.workspace !== undefined ? { ...row, workspace: entry.workspace } : row));
    const known = merged.get(entry.merchant);
    if (!known) {
      const { workspace: _workspace, ...rest } = entry;
      merged.set(entry.merchant, { ...rest, rows: tagged });
      continue;
    }
    known.name ??= entry.name;
    known.rows = known.rows.map((row, index) => {
      const other = tagged[index];
      return other !== undefined && STATUS_RANK[other.status] > STATUS_RANK[row.status] ? other : row;
    });
  }
  return [...merged.values()];
}
