import type { CodedText } from '../i18n/coded-text.js';
import { COVERAGE_ROW_IDS, type CoverageRowId, type CoverageStatus, STATUS_RANK } from './coverage-rows.js';
import type { CoverageRow } from './report-schema.js';

type Mark = Pick<CoverageRow, 'trade' | 'detail' | 'detail_code' | 'detail_params'> & { status: Exclude<CoverageStatus, 'not_seen'> };

/**
 * One merchant's coverage rows. A row only moves up (seen, handled, wrong): once a callback
 * was never acknowledged the row stays wrong, naming that trade, whatever came after.
 */
/** A detail as a mark keeps it: a coded one with its code and parameters beside its English text. */
const said = (detail: string | CodedText | undefined): Pick<Mark, 'detail' | 'detail_code' | 'detail_params'> =>
  typeof detail === 'string' ? { detail } : detail !== undefined ? { detail: detail.text, detail_code: detail.code, detail_params: detail.params } : {};

export class CoverageTally {
  readonly #marks: Map<CoverageRowId, Mark>;
  /** Told when a mark changes (the report's store keeps the counts: src/report/keep-report.ts). */
  readonly #changed: () => void;

  constructor(changed: () => void = () => undefined, marks: Iterable<readonly [CoverageRowId, Mark]> = []) {
    this.#changed = changed;
    this.#marks = new Map(marks);
  }

  /** Every mark, as restore takes them back (the constructor's `marks`). */
  saved(): Array<[CoverageRowId, Mark]> {
    return [...this.#marks];
  }

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
    this.#marks.set(id, { status, ...(trade !== undefined ? { trade } : {}), ...said(detail) });
    this.#changed();
  }

  /**
   * Marks a row seen for `trade` with `detail`, also when it is seen for that trade already: the
   * detail says more now ("reading the balance probe", then why the credit was not checked). A
   * row seen for another trade, handled or wrong stays as it is.
   */
  seenAgain(id: CoverageRowId, trade: string, detail: string | CodedText): void {
    const current = this.#marks.get(id);
    if (current === undefined || (current.status === 'seen' && (current.trade === undefined || current.trade === trade))) {
      this.#marks.set(id, { status: 'seen', trade, ...said(detail) });
      this.#changed();
    }
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
