import { describe, expect, it } from 'vitest';
import { JOURNAL_GROWTH_LIMIT, shouldCompact } from './compaction-policy.js';

const MiB = 1024 * 1024;
const threshold = 64 * MiB;

describe('shouldCompact', () => {
  it('leaves a journal of new rows alone until it reaches the growth limit', () => {
    // 100,000 new trades in the journal over an empty snapshot: every entry is a live row.
    expect(shouldCompact({ snapshotBytes: 0, journalBytes: 200 * MiB, entries: 400_000, liveRows: 400_000 }, threshold)).toBe(false);
    expect(shouldCompact({ snapshotBytes: 0, journalBytes: JOURNAL_GROWTH_LIMIT * threshold, entries: 500_000, liveRows: 500_000 }, threshold)).toBe(true);
    // The limit grows with the snapshot.
    expect(shouldCompact({ snapshotBytes: 300 * MiB, journalBytes: 1000 * MiB, entries: 2_000_000, liveRows: 2_000_000 }, threshold)).toBe(false);
    expect(shouldCompact({ snapshotBytes: 300 * MiB, journalBytes: 1200 * MiB, entries: 2_500_000, liveRows: 2_500_000 }, threshold)).toBe(true);
  });

  it('compacts once superseded data reaches the threshold and the live data', () => {
    // A snapshot of 100,000 rows (50 MiB), each row then replaced once (50 MiB of journal): half superseded.
    expect(shouldCompact({ snapshotBytes: 50 * MiB, journalBytes: 50 * MiB, entries: 200_000, liveRows: 100_000 }, threshold)).toBe(false);
    // Replaced a second time: 100 of 150 MiB superseded, more than the threshold and the 50 MiB live.
    expect(shouldCompact({ snapshotBytes: 50 * MiB, journalBytes: 100 * MiB, entries: 300_000, liveRows: 100_000 }, threshold)).toBe(true);
    // A small store whose few rows change often: superseded data passes the live data, but not yet the threshold.
    expect(shouldCompact({ snapshotBytes: 1 * MiB, journalBytes: 60 * MiB, entries: 100_000, liveRows: 1_000 }, threshold)).toBe(false);
    expect(shouldCompact({ snapshotBytes: 1 * MiB, journalBytes: 66 * MiB, entries: 110_000, liveRows: 1_000 }, threshold)).toBe(true);
  });

  it('deleted rows count as superseded: the rows and the changes that removed them', () => {
    expect(shouldCompact({ snapshotBytes: 40 * MiB, journalBytes: 40 * MiB, entries: 200_000, liveRows: 0 }, threshold)).toBe(true);
    expect(shouldCompact({ snapshotBytes: 0, journalBytes: 0, entries: 0, liveRows: 0 }, threshold)).toBe(false);
  });

  it('without a count of live rows, compacts at the larger of the threshold and the snapshot', () => {
    expect(shouldCompact({ snapshotBytes: 10 * MiB, journalBytes: threshold - 1, entries: 1, liveRows: undefined }, threshold)).toBe(false);
    expect(shouldCompact({ snapshotBytes: 10 * MiB, journalBytes: threshold, entries: 1, liveRows: undefined }, threshold)).toBe(true);
    expect(shouldCompact({ snapshotBytes: 100 * MiB, journalBytes: 99 * MiB, entries: 1, liveRows: undefined }, threshold)).toBe(false);
  });
});
