import type { Sandbox } from '../sandbox.js';

export interface ResetResult {
  status: 'reset';
  removed: { trades: number; callbacks: number; jobs: number };
}

/**
 * Removes every trade, callback event and pending job. The clock (its mode, and the time a
 * manual clock stands at) and the other meta rows stay, so sandbox time never jumps back.
 */
export function resetSandbox(sandbox: Pick<Sandbox, 'store' | 'callbacks'>): ResetResult {
  const { store } = sandbox;
  const removed = { trades: store.trades.size, callbacks: store.callbacks.size, jobs: store.jobs.size };
  const meta = [...store.meta.values()];
  store.clear();
  for (const row of meta) store.meta.put(row);
  sandbox.callbacks.reset();
  return { status: 'reset', removed };
}
