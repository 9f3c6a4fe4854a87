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

  constructor(mode: ClockMode, store: Store, wall: () => number = Date.now) {
    this.mode = mode;
    this.#store = store;
    this.#wall = wall;
    const row = this.#row();
    if (mode === 'manual' && typeof row.frozen !== 'number') {
      this.#store.meta.put({ ...row, frozen: this.#wall() + (row.offset ?? 0) });
    }
  }

  now(): number {
    const row = this.#row();
    if (this.mode === 'manual') return row.frozen ?? this.#wall();
    return this.#wall() + (row.offset ?? 0);
  }

  nowIso(): string {
    return new Date(this.now()).toISOString();
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

  #row(): { id: 'clock'; offset?: number; frozen?: number } {
    const row = this.#store.meta.get('clock');
    return {
      id: 'clock',
      ...(typeof row?.['offset'] === 'number' ? { offset: row['offset'] } : {}),
      ...(typeof row?.['frozen'] === 'number' ? { frozen: row['frozen'] } : {}),
    };
  }
}
