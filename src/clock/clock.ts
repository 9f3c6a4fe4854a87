import type { Store } from '../store/store.js';

export type ClockMode = 'real' | 'manual';

/**
 * The sandbox clock. `real` follows the wall clock plus whatever has been advanced;
 * `manual` stands still until advanced. The offset (real) or the frozen time (manual)
 * is kept in the store, so a restart resumes the same sandbox time.
 */
export class Clock {
  readonly mode: ClockMode;
  readonly #store: Store;
  readonly #wall: () => number;
  #isoFor = Number.NaN;
  #iso = '';

  constructor(mode: ClockMode, store: Store, wall: () => number = Date.now) {
    this.mode = mode;
    this.#store = store;
    this.#wall = wall;
    const row = this.#row();
    if (mode === 'manual' && row.frozen === undefined) {
      this.#store.meta.put({ ...row, frozen: this.#wall() + (row.offset ?? 0) });
    }
  }

  now(): number {
    if (this.mode === 'real') {
      const offset = this.#store.meta.get('clock')?.['offset'];
      return this.#wall() + (typeof offset === 'number' ? offset : 0);
    }
    const row = this.#row();
    if (row.frozen !== undefined) return row.frozen;
    // After a reset the frozen time is gone: freeze again at the wall clock.
    const frozen = this.#wall();
    this.#store.meta.put({ ...row, frozen });
    return frozen;
  }

  nowIso(): string {
    const now = this.now();
    // Requests that arrive within the same millisecond share one formatted string.
    if (now !== this.#isoFor) {
      this.#isoFor = now;
      this.#iso = new Date(now).toISOString();
    }
    return this.#iso;
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
