/**
 * When the journal is folded into `db.json` while the sandbox runs (on close and after a reset
 * it always is). Start-up reads the snapshot and then replays the journal; replaying a change
 * costs about what loading a snapshot row costs, so a journal is only worth folding in once
 * enough of what start-up would read is superseded: rows replaced or deleted since they were
 * written. A journal of new rows only is live data either way, and folding it in would write
 * every row again for nothing.
 */
export interface CompactionState {
  /** Bytes of `db.json` as start-up reads it. */
  snapshotBytes: number;
  /** Bytes of the journal written so far (not the record being written: its size is known once it is framed). */
  journalBytes: number;
  /** Rows in `db.json` plus changes in the journal, including the record being written. */
  entries: number;
  /** Rows in memory once the record is written; undefined when the caller does not count them. */
  liveRows: number | undefined;
}

/** How many times the larger of the threshold and the snapshot a journal may grow before it is folded in anyway. */
export const JOURNAL_GROWTH_LIMIT = 4;

/**
 * True when the journal should be folded in now:
 * - superseded data (estimated from the share of entries that are no longer live rows) reaches
 *   `threshold` bytes and the live data, so start-up reads at most about twice what it loads; or
 * - the journal alone reaches `JOURNAL_GROWTH_LIMIT` times the larger of `threshold` and the
 *   snapshot (a bound on its size whatever it holds); or
 * - without a count of live rows, the journal reaches the larger of `threshold` and the snapshot.
 */
export function shouldCompact(state: CompactionState, threshold: number): boolean {
  const { snapshotBytes, journalBytes, entries, liveRows } = state;
  const limit = Math.max(threshold, snapshotBytes);
  if (journalBytes >= JOURNAL_GROWTH_LIMIT * limit) return true;
  if (liveRows === undefined) return journalBytes >= limit;
  const read = snapshotBytes + journalBytes;
  const superseded = entries > 0 ? (read * Math.max(0, entries - liveRows)) / entries : 0;
  return superseded >= Math.max(threshold, read - superseded);
}
