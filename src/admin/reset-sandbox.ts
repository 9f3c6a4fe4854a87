import type { Sandbox } from '../sandbox.js';

export interface ResetResult {
  status: 'reset';
  removed: { trades: number; callbacks: number; jobs: number };
}

/**
 * Removes every trade, callback event and pending job. The clock (its mode, and the time a
 * manual clock stands at) and the other meta rows stay, so sandbox time never jumps back.
 * The integration report keeps its counts and forgets the read times of the removed trades.
 */
export function resetSandbox(sandbox: Pick<Sandbox, 'store' | 'callbacks' | 'report'>): ResetResult {
  const { store } = sandbox;
  const removed = { trades: store.trades.size, callbacks: store.callbacks.size, jobs: store.jobs.size };
  const meta = [...store.meta.values()];
  store.clear();
  for (const row of meta) store.meta.put(row);
  sandbox.callbacks.reset();
  // A seeded sandbox draws the same trade ids again: their old reads are no polls of the new trades.
  sandbox.report.forgetReads();
  return { status: 'reset', removed };
}
