import { type ProbeAnswer, ProbeError, readProbe } from '../balance-probe/read-probe.js';
import type { Limiter } from '../callbacks/limiter.js';
import { quietLogger } from '../log/logger.js';

/** Reads waiting for a slot beyond this many are not made: the trade's credit is left unchecked. */
export const MAX_WAITING_READS = 1_000;

/** The probe's answer for one order, or why there is none (never a verdict: the probe was not read). */
export type CreditReading = { read: true; answer: ProbeAnswer } | { read: false; problem: string };

export interface CreditCheckOptions {
  /** `serve --probe`: the probe's URL, `{merchant}` and `{workspace}` not yet replaced; undefined: credits are not checked. */
  probe: string | undefined;
  /** The sandbox's workspace name (`default` for the server's own), for `{workspace}`. */
  workspace: string;
  /** Bounds each read, from connecting to the last byte (the callback timeout). */
  timeoutMs: number;
  /** Shared by every workspace of a server: how many reads run at once. */
  slots: Limiter;
  /** Where a failure to count a reading is told (the sandbox's logger); silent without. */
  warn?: ((line: string) => void) | undefined;
  /** The states the probe may answer, read at each reading: those of the provider profile in force (the sandbox's own when left out). */
  states?: () => readonly string[];
}

/**
 * Reads the merchant's balance probe (contract §13) for the integration report, off every
 * request path: a read is started after a callback was acknowledged and reports back later, so
 * neither a create nor a callback delivery ever waits for it. Each read is bounded by
 * `timeoutMs`; at most `slots.max` run at once per server, and at most MAX_WAITING_READS wait.
 */
export class CreditCheck {
  readonly #o: CreditCheckOptions;
  readonly #warn: (line: string) => void;
  readonly #inFlight = new Set<Promise<void>>();

  constructor(options: CreditCheckOptions) {
    this.#o = options;
    this.#warn = options.warn ?? quietLogger.warn;
  }

  /** Whether a probe is configured (credits are checked). */
  get on(): boolean {
    return this.#o.probe !== undefined;
  }

  /** The probe URL for one merchant: `{merchant}` and `{workspace}` replaced, URL-encoded. */
  url(merchant: string): string | undefined {
    return this.#o.probe?.replaceAll('{merchant}', encodeURIComponent(merchant)).replaceAll('{workspace}', encodeURIComponent(this.#o.workspace));
  }

  /** Starts reading the probe for `order` of `merchant`; `then` gets the answer, or why there is none. Returns at once. */
  read(merchant: string, order: string, then: (reading: CreditReading) => void): void {
    const url = this.url(merchant);
    if (url === undefined) return;
    if (this.#o.slots.waiting >= MAX_WAITING_READS) {
      then({ read: false, problem: `was not read: more than ${MAX_WAITING_READS} reads of the balance probe were waiting` });
      return;
    }
    const work = this.#o.slots
      .run(() => readProbe(url, order, this.#o.timeoutMs, this.#o.states?.()))
      .then(
        (answer): CreditReading => ({ read: true, answer }),
        (error: unknown): CreditReading => ({ read: false, problem: error instanceof ProbeError ? error.problem : `could not be read (${(error as Error).message})` }),
      )
      .then(then)
      .catch((error: unknown) => this.#warn(`a balance probe reading could not be counted: ${(error as Error).message}`))
      .finally(() => this.#inFlight.delete(work));
    this.#inFlight.add(work);
  }

  /** How many reads are under way or waiting for a slot. */
  get pending(): number {
    return this.#inFlight.size;
  }

  /**
   * Resolves once the reads under way now have reported, or after `maxMs`, whichever comes
   * first (a read waiting for a slot may take longer than one timeout).
   */
  async settled(maxMs: number = this.#o.timeoutMs): Promise<void> {
    if (this.#inFlight.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, maxMs);
      timer.unref();
    });
    await Promise.race([Promise.all(this.#inFlight), waited]).finally(() => clearTimeout(timer));
  }
}
