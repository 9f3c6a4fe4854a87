import type { Store } from '../store/store.js';
import type { MistakeCounter } from './mistake-counter.js';
import { savedReportSchema } from './saved-report.js';

/** The meta row that keeps a sandbox's report counts (a state import keeps it: src/sessions/import-state.ts). */
export const REPORT_ROW = 'report';
/** Changes within this long are written together: a burst of mistakes is one write, not one per request. */
const REPORT_WRITE_DELAY_MS = 250;
/** setTimeout as it was at start-up: a test's fake timers must not hold the report's writes back. */
const later = setTimeout;

/** Runs `run` in `ms`, without keeping the process up; returns what cancels it. */
function delayed(run: () => void, ms: number): () => void {
  const timer = later(run, ms);
  timer.unref();
  return () => clearTimeout(timer);
}

/**
 * How long after a delayed write found the store failing (a full disk) the counts are tried
 * again, and again after each failed try: seldom, since each try can only fail until space is
 * freed, and still often enough that the counts are written when nothing else writes.
 */
const REPORT_RETRY_MS = 5_000;

/**
 * Keeps a sandbox's integration report counts in its store (the meta row `report`), so a durable
 * sandbox (serve --data) reports the same coverage and mistakes after a restart: restores them
 * now, and writes them again REPORT_WRITE_DELAY_MS after a change (the counts change on mistakes
 * and on coverage rows moving up, never on the common create or read), and at close (`flush`).
 * A reset keeps them, as it keeps every meta row; a row that no longer reads is set aside with a
 * line, and the report starts empty.
 *
 * While the store's writes fail (a full disk), the counts are not written REPORT_WRITE_DELAY_MS
 * after each change but tried every REPORT_RETRY_MS: a write of them would fail as well.
 * `schedule` runs a delayed write (tests keep it and run it when they choose) and returns what
 * cancels it.
 */
export function keepReport(store: Store, counter: MistakeCounter, warn: (line: string) => void, schedule: (run: () => void, ms: number) => () => void = delayed): { flush(): Promise<void> } {
  const row = store.meta.get(REPORT_ROW);
  if (row !== undefined) {
    const parsed = savedReportSchema.safeParse(row['counts']);
    if (parsed.success) counter.restore(parsed.data);
    else warn(`the integration report counts kept in this workspace's store do not read (${parsed.error.issues[0]?.message ?? 'unknown shape'}); the report starts empty`);
  }
  /** Cancels the delayed write, while one waits. */
  let cancel: (() => void) | undefined;
  /** A change not written yet (waiting for the timer, or its write failed). */
  let dirty = false;
  /** Set by flush(): nothing is scheduled after it. */
  let closed = false;
  const write = (): Promise<void> => {
    dirty = false;
    store.meta.put({ id: REPORT_ROW, counts: counter.saved() });
    // A failed write is the store's to log; the counts are tried again, and written at close.
    return store.commit().catch(() => {
      dirty = true;
      if (!closed && cancel === undefined) wait(REPORT_RETRY_MS, true);
    });
  };
  /** Writes in `ms`; a write that is not a retry and finds the store failing waits for the retry instead. */
  const wait = (ms: number, retry: boolean): void => {
    cancel = schedule(() => {
      cancel = undefined;
      if (store.failing !== undefined && !retry) wait(REPORT_RETRY_MS, true);
      else void write();
    }, ms);
  };
  counter.onChange(() => {
    dirty = true;
    // After flush() the store is closing or closed: a write then would open it again, or fail.
    if (cancel === undefined && !closed) wait(REPORT_WRITE_DELAY_MS, false);
  });
  return {
    /**
     * Writes what is not written yet; called before the store closes. Resolves when that write is
     * done, also when it failed: a store that no longer writes (its data folder's lock taken over,
     * a full disk) has said so, and the stop goes on with nothing else to write.
     */
    async flush() {
      closed = true;
      cancel?.();
      cancel = undefined;
      if (dirty) await write();
    },
  };
}
