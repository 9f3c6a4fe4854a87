/**
 * Caps how many tasks run at once; the rest wait in arrival order. Used to bound callback
 * deliveries in flight (a high bound, so slow receivers of different trades overlap).
 */
export class Limiter {
  readonly max: number;
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError('Limiter needs a whole number of slots, at least 1');
    this.max = max;
  }

  /** Tasks running now. */
  get running(): number {
    return this.#running;
  }

  /** Tasks waiting for a slot. */
  get waiting(): number {
    return this.#waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.max) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#running++;
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      // Hand the slot straight to the next task, so the count never dips below max while tasks wait.
      if (next) next();
      else this.#running--;
    }
  }
}
