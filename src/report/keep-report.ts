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
 * Keeps a sandbox's integration report counts in its store (the meta row `report`), so a durable
 * sandbox (serve --data) reports the same coverage and mistakes after a restart: restores them
 * now, and writes them again REPORT_WRITE_DELAY_MS after a change (the counts change on mistakes
 * and on coverage rows moving up, never on the common create or read), and at close (`flush`).
 * A reset keeps them, as it keeps every meta row; a row that no longer reads is set aside with a
 * line, and the report starts empty.
 *
 * While the store's writes fail (a full disk), a change of the counts writes nothing: that write
 * would fail too, and a merchant's request that arrives while it is under way, once space is
 * free again, would be refused with it (the store's writes go one after another, and a failed
 * one refuses the changes queued behind it). The counts are written at the first change after
 * writes work again, or at close. `schedule` is when the delayed write runs (tests run it at once).
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
  const write = (): Promise<void> => {
    cancel = undefined;
    dirty = false;
    store.meta.put({ id: REPORT_ROW, counts: counter.saved() });
    // A failed write is the store's to log; the counts are written again at the next change or at close.
    return store.commit().catch(() => {
      dirty = true;
    });
  };
  counter.onChange(() => {
    dirty = true;
    if (cancel !== undefined) return;
    cancel = schedule(() => {
      if (store.failing === undefined) void write();
      else cancel = undefined;
    }, REPORT_WRITE_DELAY_MS);
  });
  return {
    /**
     * Writes what is not written yet; called before the store closes. Resolves when that write is
     * done, also when it failed: a store that no longer writes (its data folder's lock taken over,
     * a full disk) has said so, and the stop goes on with nothing else to write.
     */
    async flush() {
      cancel?.();
      if (dirty) await write();
    },
  };
}
