import { POLL_INTERVAL_MS, type IntegrationReport, type MerchantMistakes } from './report-schema.js';

/** Merchant ids beyond this many are counted together, so made-up ids cannot grow memory. */
const MAX_MERCHANTS = 1_000;
const OTHERS = '(other merchant ids)';

interface Tally {
  unauthorized: Map<string, number>;
  invalid: Map<string, number>;
  duplicate_orders: number;
  callbacks: MerchantMistakes['callbacks'];
  fast_polls: number;
}

const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

/**
 * Counts the merchant's mistakes per merchant. Knows nothing of HTTP: it is fed by the read
 * hook (src/report/count-reads.ts), the refusal hook (src/report/count-refusal.ts) and the
 * callback dispatcher's events (src/report/watch-callbacks.ts). Kept in memory only.
 */
export class MistakeCounter {
  readonly #tallies = new Map<string, Tally>();
  /**
   * When trades were last read, by trade id, in two generations: reads since `#since`, and
   * the generation before. Only a read less than POLL_INTERVAL_MS old matters, so a
   * generation is dropped once it is that old: memory follows the trades read lately, not
   * every trade ever read.
   */
  #lastRead = new Map<string, number>();
  #readBefore = new Map<string, number>();
  #since = Number.NEGATIVE_INFINITY;

  #tally(merchant: string): Tally {
    const id = merchant.slice(0, 100);
    let tally = this.#tallies.get(id);
    if (!tally) {
      if (this.#tallies.size >= MAX_MERCHANTS && id !== OTHERS) return this.#tally(OTHERS);
      tally = { unauthorized: new Map(), invalid: new Map(), duplicate_orders: 0, callbacks: { answered_non_2xx: 0, timed_out: 0, never_acknowledged: 0, accepted_bad_signature: 0 }, fast_polls: 0 };
      this.#tallies.set(id, tally);
    }
    return tally;
  }

  /** A provider request the sandbox refused with 401 (`code` is the error code). */
  unauthorized(merchant: string, code: string): void {
    bump(this.#tally(merchant).unauthorized, code);
  }

  /** A provider request refused with 422: one count per field named in the error's details. */
  invalid(merchant: string, code: string, fields: readonly string[]): void {
    const tally = this.#tally(merchant);
    if (code === 'duplicate_order') {
      tally.duplicate_orders++;
      return;
    }
    for (const field of new Set(fields.length > 0 ? fields : ['body'])) bump(tally.invalid, `${field}\u0000${code}`);
  }

  /** A successful read of a trade at `now` (ms of the sandbox clock). */
  read(merchant: string, trade: string, now: number): void {
    if (now - this.#since >= POLL_INTERVAL_MS) {
      // Every read in #readBefore is older than #since, so at least POLL_INTERVAL_MS old now.
      this.#readBefore = this.#lastRead;
      this.#lastRead = new Map();
      this.#since = now;
    }
    const key = trade.toLowerCase();
    const last = this.#lastRead.get(key) ?? this.#readBefore.get(key);
    this.#lastRead.set(key, now);
    if (last !== undefined && now - last < POLL_INTERVAL_MS) this.#tally(merchant).fast_polls++;
  }

  /** A callback attempt that did not count as delivered, or a forged copy that was accepted. */
  callback(merchant: string, mistake: Exclude<keyof MerchantMistakes['callbacks'], 'never_acknowledged'>): void {
    this.#tally(merchant).callbacks[mistake]++;
  }

  /** A callback failed after its last retry. */
  neverAcknowledged(merchant: string): void {
    this.#tally(merchant).callbacks.never_acknowledged++;
  }

  /** Forgets the last read time of every trade (after a reset of the sandbox's data). */
  forgetReads(): void {
    this.#lastRead.clear();
    this.#readBefore.clear();
  }

  /** The report: merchants sorted by id, each with its counts. */
  report(nameOf: (merchant: string) => string | undefined = () => undefined): IntegrationReport {
    const merchants = [...this.#tallies.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([merchant, t]): MerchantMistakes => {
        const unauthorized = [...t.unauthorized].sort().map(([cause, count]) => ({ cause, count }));
        const invalid = [...t.invalid].sort().map(([key, count]) => {
          const [field = '', code = ''] = key.split('\u0000');
          return { field, code, count };
        });
        const callbacks = Object.values(t.callbacks).reduce((sum, n) => sum + n, 0);
        const total = unauthorized.reduce((s, u) => s + u.count, 0) + invalid.reduce((s, i) => s + i.count, 0) + t.duplicate_orders + callbacks + t.fast_polls;
        const name = nameOf(merchant);
        return { merchant, ...(name !== undefined ? { name } : {}), total, unauthorized, invalid, duplicate_orders: t.duplicate_orders, callbacks: { ...t.callbacks }, fast_polls: t.fast_polls };
      })
      .filter((m) => m.total > 0);
    return { poll_interval_ms: POLL_INTERVAL_MS, total: merchants.reduce((sum, m) => sum + m.total, 0), merchants };
  }
}
