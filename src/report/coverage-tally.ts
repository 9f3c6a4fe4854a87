import type { CodedText } from '../pages/i18n/coded-text.js';
import { COVERAGE_ROW_IDS, type CoverageRowId, type CoverageStatus, STATUS_RANK } from './coverage-rows.js';
import type { CoverageRow } from './report-schema.js';

type Mark = Pick<CoverageRow, 'trade' | 'detail' | 'detail_code' | 'detail_params'> & { status: Exclude<CoverageStatus, 'not_seen'> };

/**
 * One merchant's coverage rows. A row only moves up (seen, handled, wrong): once a callback
 * was never acknowledged the row stays wrong, naming that trade, whatever came after.
 */
export class CoverageTally {
  readonly #marks = new Map<CoverageRowId, Mark>();

  /** Whether any row was met. */
  get met(): boolean {
    return this.#marks.size > 0;
  }

  /** The row's status now. */
  status(id: CoverageRowId): CoverageStatus {
    return this.#marks.get(id)?.status ?? 'not_seen';
  }

  /** A row met; a coded detail keeps its code and parameters beside its English text (detail_code, detail_params). */
  mark(id: CoverageRowId, status: Mark['status'], trade?: string, detail?: string | CodedText): void {
    const current = this.#marks.get(id);
    if (current !== undefined && STATUS_RANK[current.status] >= STATUS_RANK[status]) return;
    const said = typeof detail === 'string' ? { detail } : detail !== undefined ? { detail: detail.text, detail_code: detail.code, detail_params: detail.params } : {};
    this.#marks.set(id, { status, ...(trade !== undefined ? { trade } : {}), ...said });
  }

  /** Adds another tally's marks (a deleted workspace's, merged into the one of the same name). */
  absorb(other: CoverageTally): void {
    for (const [id, mark] of other.#marks) {
      const current = this.#marks.get(id);
      if (current === undefined || STATUS_RANK[current.status] < STATUS_RANK[mark.status]) this.#marks.set(id, mark);
    }
  }

  /** Every row, in the documented order; rows never met are not_seen. */
  rows(): CoverageRow[] {
    return COVERAGE_ROW_IDS.map((id) => {
      const mark = this.#marks.get(id);
      return mark === undefined ? { id, status: 'not_seen' } : { id, ...mark };
    });
  }
}
