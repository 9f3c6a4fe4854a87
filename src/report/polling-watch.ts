/** Reads of one trade above this many within POLLING_WINDOW_MS (real time) are sustained polling: a note, never a mistake. */
export const POLLING_READS = 60;
/** The window of POLLING_READS, in ms of real (wall-clock) time, whatever the sandbox clock does. */
export const POLLING_WINDOW_MS = 60_000;

interface Window {
  /** Wall-clock ms of the first read of this window. */
  start: number;
  reads: number;
}

/**
 * Finds sustained polling: more than POLLING_READS reads of one trade within one window of
 * POLLING_WINDOW_MS of real time. A trade's window opens at its first read and closes
 * POLLING_WINDOW_MS later; the next read opens a new one. So a flagged trade really was read
 * more than POLLING_READS times within a minute (a burst split by a window's end may go
 * unflagged: this is advice, and it must never flag a client that does not poll).
 *
 * Memory follows the trades read in the last two windows, not every trade ever read: windows
 * are kept in two generations, and a generation is dropped once all its windows are closed.
 */
export class PollingWatch {
  #current = new Map<string, Window>();
  #previous = new Map<string, Window>();
  #since = Number.NEGATIVE_INFINITY;

  /** A successful read of `trade` at `now` (wall-clock ms). True on the read that makes the window sustained polling (once per window). */
  read(trade: string, now: number): boolean {
    if (now - this.#since >= POLLING_WINDOW_MS) {
      // Every window in #previous opened before #since, so it is closed by now.
      this.#previous = this.#current;
      this.#current = new Map();
      this.#since = now;
    }
    const key = trade.toLowerCase();
    let window = this.#current.get(key);
    if (window === undefined) {
      window = this.#previous.get(key);
      if (window !== undefined) this.#current.set(key, window);
    }
    if (window === undefined || now - window.start >= POLLING_WINDOW_MS || now < window.start) {
      window = { start: now, reads: 0 };
      this.#current.set(key, window);
    }
    window.reads++;
    return window.reads === POLLING_READS + 1;
  }

  /** Forgets every read (after a reset of the sandbox's data). */
  forget(): void {
    this.#current.clear();
    this.#previous.clear();
  }
}
