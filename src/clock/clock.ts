import type { Store } from '../store/store.js';

export type ClockMode = 'real' | 'manual';

/**
 * The last time any clock of this process formatted as ISO text, for the clocks that miss their
 * own (below): real clocks of busy workspaces stand at the same millisecond, and each of them sees
 * that millisecond only once or twice, so their own entries rarely help while this one does.
 * A pure function's last answer: it holds a time, never a tenant's data.
 */
let lastFormatted = { at: Number.NaN, iso: '' };

/** `new Date(ms).toISOString()`, remembering the last answer of the process. */
function formatIso(ms: number): string {
  if (ms !== lastFormatted.at) lastFormatted = { at: ms, iso: new Date(ms).toISOString() };
  return lastFormatted.iso;
}

/**
 * The sandbox clock. `real` follows the wall clock plus whatever has been advanced;
 * `manual` stands still until advanced. The offset (real) or the frozen time (manual)
 * is kept in the store, so a restart resumes the same sandbox time.
 *
 * Sandbox time never goes backwards, also across a restart in the other mode: a manual
 * clock starts where the real one was (wall clock plus offset), and a real clock started
 * on a store whose manual clock stood ahead of the wall clock keeps that lead as its
 * offset. Only a new store (another --data folder, or --in-memory) starts at the wall clock.
 */
export class Clock {
  readonly mode: ClockMode;
  readonly #store: Store;
  readonly #wall: () => number;
  /** The last time this clock formatted, and its ISO text (requests within one millisecond share it). */
  #formatted = { at: Number.NaN, iso: '' };

  constructor(mode: ClockMode, store: Store, wall: () => number = Date.now) {
    this.mode = mode;
    this.#store = store;
    this.#wall = wall;
    const row = this.#row();
    if (mode === 'manual') {
      if (row.frozen === undefined) this.#store.meta.put({ ...row, frozen: this.#wall() + (row.offset ?? 0) });
    } else if (row.frozen !== undefined) {
      // From manual to real: carry on from the manual time (never back to the wall clock).
      this.#store.meta.put({ id: 'clock', offset: Math.max(row.offset ?? 0, row.frozen - this.#wall()) });
    }
  }

  /** How far sandbox time is ahead of the wall clock, in ms (what advances have added). */
  aheadOfWall(): number {
    return this.now() - this.#wall();
  }

  now(): number {
    if (this.mode === 'real') {
      const offset = this.#store.meta.get('clock')?.['offset'];
      return this.#wall() + (typeof offset === 'number' ? offset : 0);
    }
    const row = this.#row();
    if (row.frozen !== undefined) return row.frozen;
    // After the store was cleared the frozen time is gone: freeze again at the wall clock
    // plus any offset still kept.
    const frozen = this.#wall() + (row.offset ?? 0);
    this.#store.meta.put({ ...row, frozen });
    return frozen;
  }

  nowIso(): string {
    const now = this.now();
    // Requests that arrive within the same millisecond share one formatted string. Each clock keeps
    // its own: workspaces whose clocks stand at other times do not take turns over one entry.
    if (now !== this.#formatted.at) this.#formatted = { at: now, iso: formatIso(now) };
    return this.#formatted.iso;
  }

  /** Moves sandbox time forward by `ms` milliseconds. */
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('The clock only moves forward by a finite amount.');
    const row = this.#row();
    if (this.mode === 'manual') {
      this.#store.meta.put({ ...row, frozen: this.now() + ms });
    } else {
      this.#store.meta.put({ ...row, offset: (row.offset ?? 0) + ms });
    }
    return this.now();
  }

  /** Moves sandbox time forward to `time`; a time in the past changes nothing. */
  advanceTo(time: number): number {
    const now = this.now();
    return time > now ? this.advance(time - now) : now;
  }

  #row(): { id: 'clock'; offset?: number; frozen?: number } {
    const row = this.#store.meta.get('clock');
    return {
      id: 'clock',
      ...(typeof row?.['offset'] === 'number' ? { offset: row['offset'] } : {}),
      ...(typeof row?.['frozen'] === 'number' ? { frozen: row['frozen'] } : {}),
    };
  }
}
