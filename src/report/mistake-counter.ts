import { POLLING_READS, PollingWatch } from './polling-watch.js';
import type { IntegrationReport, MerchantMistakes, ReportNote } from './report-schema.js';

/** Merchant ids beyond this many are counted together, so made-up ids cannot grow memory. */
const MAX_MERCHANTS = 1_000;
const OTHERS = '(other merchant ids)';
/** Trades noted for sustained polling, per merchant. */
const MAX_NOTED_TRADES = 20;

interface Tally {
  unauthorized: Map<string, number>;
  invalid: Map<string, number>;
  duplicate_orders: number;
  callbacks: MerchantMistakes['callbacks'];
  /** Trades read more than POLLING_READS times within a minute, and how many times that was seen. */
  polled: Map<string, number>;
}

const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

/**
 * Counts the merchant's mistakes per merchant. Knows nothing of HTTP: it is fed by the read
 * hook (src/report/count-reads.ts), the refusal hook (src/report/count-refusal.ts) and the
 * callback dispatcher's events (src/report/watch-callbacks.ts). Kept in memory only.
 */
export class MistakeCounter {
  readonly #tallies = new Map<string, Tally>();
  readonly #polling = new PollingWatch();

  #tally(merchant: string): Tally {
    const id = merchant.slice(0, 100);
    let tally = this.#tallies.get(id);
    if (!tally) {
      if (this.#tallies.size >= MAX_MERCHANTS && id !== OTHERS) return this.#tally(OTHERS);
      tally = {
        unauthorized: new Map(),
        invalid: new Map(),
        duplicate_orders: 0,
        callbacks: { answered_non_2xx: 0, timed_out: 0, never_acknowledged: 0, accepted_bad_signature: 0 },
        polled: new Map(),
      };
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

  /**
   * A successful read of a trade at `now` (wall-clock ms: the sandbox clock may stand still).
   * Reading a trade is never a mistake; more than POLLING_READS reads of one trade within a
   * minute is noted as advice (src/report/polling-watch.ts).
   */
  read(merchant: string, trade: string, now: number): void {
    if (!this.#polling.read(trade, now)) return;
    const { polled } = this.#tally(merchant);
    const key = trade.toLowerCase();
    if (polled.has(key) || polled.size < MAX_NOTED_TRADES) bump(polled, key);
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
    this.#polling.forget();
  }

  /** The report: merchants sorted by id, each with its counts; notes after. */
  report(nameOf: (merchant: string) => string | undefined = () => undefined): IntegrationReport {
    const sorted = [...this.#tallies.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const named = (merchant: string) => {
      const name = nameOf(merchant);
      return name !== undefined ? { merchant, name } : { merchant };
    };
    const merchants = sorted
      .map(([merchant, t]): MerchantMistakes => {
        const unauthorized = [...t.unauthorized].sort().map(([cause, count]) => ({ cause, count }));
        const invalid = [...t.invalid].sort().map(([key, count]) => {
          const [field = '', code = ''] = key.split('\u0000');
          return { field, code, count };
        });
        const callbacks = Object.values(t.callbacks).reduce((sum, n) => sum + n, 0);
        const total = unauthorized.reduce((s, u) => s + u.count, 0) + invalid.reduce((s, i) => s + i.count, 0) + t.duplicate_orders + callbacks;
        return { ...named(merchant), total, unauthorized, invalid, duplicate_orders: t.duplicate_orders, callbacks: { ...t.callbacks } };
      })
      .filter((m) => m.total > 0);
    const notes = sorted.flatMap(([merchant, t]) =>
      [...t.polled].sort().map(
        ([trade, count]): ReportNote => ({
          ...named(merchant),
          id: 'sustained_polling',
          trade,
          count,
          detail: `more than ${POLLING_READS} reads of trade ${trade} within a minute${count > 1 ? ` (${count} times)` : ''}: wait for the callback, and when you must poll, read a trade at most once a second`,
        }),
      ),
    );
    return { total: merchants.reduce((sum, m) => sum + m.total, 0), merchants, notes };
  }
}
